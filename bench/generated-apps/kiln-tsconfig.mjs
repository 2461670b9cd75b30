// The tsconfig of a generated Kiln application (kiln-app.mjs, kiln-services-app.mjs): standard
// decorators, and with `transformer` the @kiln/core/transformer plugin that tspc runs. One
// definition, so that every generated Kiln app is compiled alike.
export function kilnTsconfig(transformer) {
  const plugins = transformer ? [{ transform: '@kiln/core/transformer', transformProgram: true }] : [];
  return JSON.stringify(
    {
      extends: '../../../../tsconfig.base.json',
      compilerOptions: { rootDir: 'src', outDir: 'dist', declaration: false, sourceMap: false, plugins },
      include: ['src/**/*.ts'],
    },
    null,
    2,
  );
}
