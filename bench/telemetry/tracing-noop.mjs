// traced-server.mjs in mode 'noop', for interleaved.mjs. Usage: node tracing-noop.mjs <port>
process.env.KILN_BENCH_TRACING = 'noop';
await import('./traced-server.mjs');
