-- Route (c): wrk sends this JSON POST on every request.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"name":"Ada","email":"ada@example.com","age":36}'
