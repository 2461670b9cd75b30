// A request/response pair with no socket: just the members a request listener uses (method, url,
// headers, socket address; writeHead, setHeader, end). Lets a listener's own work per request be
// timed apart from Node's HTTP parser and the kernel.
export function stubRequest({ method, path, headers }) {
  const all = { host: '127.0.0.1', ...headers };
  return {
    method,
    url: path,
    headers: all,
    // as Node's parser gives them: a listener may count header lines (Kiln checks their number and Host)
    rawHeaders: Object.entries(all).flat(),
    httpVersionMajor: 1,
    httpVersionMinor: 1,
    socket: { remoteAddress: '127.0.0.1', encrypted: false },
    complete: true,
  };
}

export function stubResponse() {
  let finish;
  const res = {
    status: 0,
    headers: [],
    body: undefined,
    headersSent: false,
    destroyed: false,
    finished: new Promise((resolve) => (finish = resolve)),
    setHeader(name, value) {
      res.headers.push(name, String(value));
    },
    writeHead(status, headers) {
      res.status = status;
      if (Array.isArray(headers)) res.headers.push(...headers);
      else if (headers) for (const name in headers) res.headers.push(name, String(headers[name]));
      res.headersSent = true;
      return res;
    },
    end(body) {
      res.body = body;
      finish();
    },
  };
  return res;
}
