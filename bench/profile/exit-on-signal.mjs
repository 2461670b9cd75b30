// Preloaded into a profiled server: exit normally on SIGTERM so `--cpu-prof` writes its profile.
process.once('SIGTERM', () => process.exit(0));
