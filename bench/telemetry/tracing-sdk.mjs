// traced-server.mjs in mode 'sdk', for interleaved.mjs. Usage: node tracing-sdk.mjs <port>
process.env.KILN_BENCH_TRACING = 'sdk';
await import('./traced-server.mjs');
