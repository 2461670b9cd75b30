// traced-server.mjs in mode 'off', for interleaved.mjs. Usage: node tracing-off.mjs <port>
process.env.KILN_BENCH_TRACING = 'off';
await import('./traced-server.mjs');
