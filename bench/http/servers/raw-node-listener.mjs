// Hand-written node:http request listener: the ceiling. Routing, conversion and serialisation
// written out for exactly these routes, with nothing a framework would add. raw-node.mjs serves
// it on a socket; the in-process benchmark calls it directly.
import { parse as parseQuery } from 'node:querystring';
import { checkNewUser } from '../../build/kiln/http/new-user.js';
import { userList } from '../../build/kiln/http/user-list.js';
import { reportCsv } from '../mixed-traffic.mjs';

function send(res, status, value) {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

// Scenario (d): a minimal fixed-window counter per client address, with the standard headers.
function fixedWindowLimiter({ windowMs, max }) {
  const windows = new Map();
  return (req, res) => {
    const key = req.headers['x-forwarded-for'] ?? req.socket.remoteAddress;
    const now = Date.now();
    let window = windows.get(key);
    if (window === undefined || window.reset <= now) {
      window = { count: 0, reset: now + windowMs };
      windows.set(key, window);
    }
    window.count++;
    res.setHeader('ratelimit-limit', String(max));
    res.setHeader('ratelimit-remaining', String(Math.max(0, max - window.count)));
    res.setHeader('ratelimit-reset', String(Math.ceil(window.reset / 1000)));
    if (window.count <= max) return true;
    send(res, 429, { error: 'Too Many Requests', message: 'Rate limit exceeded.' });
    return false;
  };
}

function getUser(req, res, id, search) {
  const query = parseQuery(search);
  const tags = query.tags;
  send(res, 200, {
    id: Number(id),
    active: query.active === 'true' || query.active === '1',
    tags: tags === undefined ? [] : typeof tags === 'string' ? [tags] : tags,
    requestId: req.headers['x-request-id'],
  });
}

function createUser(req, res) {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    let user;
    try {
      user = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      send(res, 400, { error: 'invalid JSON' });
      return;
    }
    const problem = checkNewUser(user);
    if (problem !== undefined) send(res, 400, { error: problem });
    else send(res, 200, { id: 1, name: user.name, email: user.email, age: user.age });
  });
}

// Mixed traffic's other routes (mixed-traffic.mjs).
function search(res, search) {
  const query = parseQuery(search);
  const tags = query.tags;
  send(res, 200, { tags: tags === undefined ? [] : typeof tags === 'string' ? [tags] : tags, limit: Number(query.limit) });
}

function report(res) {
  res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'content-length': Buffer.byteLength(reportCsv) });
  res.end(reportCsv);
}

export function createRawListener({ rateLimited = false } = {}) {
  const limit = rateLimited ? fixedWindowLimiter({ windowMs: 60_000, max: 1_000_000_000 }) : undefined;
  const routeLimit = fixedWindowLimiter({ windowMs: 60_000, max: 1_000_000_000 });
  return (req, res) => {
    if (limit !== undefined && !limit(req, res)) return;
    const url = req.url;
    const question = url.indexOf('?');
    const path = question === -1 ? url : url.slice(0, question);
    const method = req.method;
    if (method === 'GET') {
      if (path === '/hello') send(res, 200, { hello: 'world' });
      else if (path === '/users') send(res, 200, userList);
      else if (path.startsWith('/users/') && path.indexOf('/', 7) === -1)
        getUser(req, res, path.slice(7), question === -1 ? '' : url.slice(question + 1));
      else if (path.startsWith('/items/') && path.indexOf('/', 7) === -1) send(res, 200, { id: Number(path.slice(7)) });
      else if (path === '/search') search(res, question === -1 ? '' : url.slice(question + 1));
      else if (path === '/whoami') send(res, 200, { user: req.headers['x-user'] });
      else if (path === '/report.csv' || path === '/report-web.csv') report(res);
      else if (path === '/limited') {
        if (routeLimit(req, res)) send(res, 200, { limited: true });
      } else send(res, 404, { error: 'Not Found' });
    } else if (method === 'POST' && path === '/users') {
      createUser(req, res);
    } else if (method === 'DELETE' && path.startsWith('/users/') && path.indexOf('/', 7) === -1) {
      res.writeHead(204);
      res.end();
    } else {
      send(res, 404, { error: 'Not Found' });
    }
  };
}
