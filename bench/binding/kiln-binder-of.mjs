// Reads the compiled binder Kiln stored for one controller method. Kiln keeps it in the class's
// decorator metadata behind a private symbol; the benchmark finds that symbol by its description
// so it can time the binder alone, as the dispatcher calls it.
export function kilnBinderOf(controller, method) {
  const metadata = controller[Symbol.metadata];
  const methodsKey = metadata && Object.getOwnPropertySymbols(metadata).find((key) => key.description === 'kiln.methods');
  const binder = methodsKey && metadata[methodsKey].get(method)?.binder;
  if (typeof binder !== 'function') throw new Error(`No compiled binder found for ${controller.name}.${method}`);
  return binder;
}
