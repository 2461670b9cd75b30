// The options a bench script takes, written `--name=value` (`node bench/http/jwt-guard.bench.mjs
// --seconds=2`): one reader, so that every script reads them alike.

/** The value of `--name=value` among the script's arguments, or `fallback` when it is not given. */
export function option(name, fallback) {
  const prefix = `--${name}=`;
  const given = process.argv.find((argument) => argument.startsWith(prefix));
  return given === undefined ? fallback : given.slice(prefix.length);
}

/** `option` read as a number (seconds, rounds, cycles). */
export function numberOption(name, fallback) {
  return Number(option(name, fallback));
}
