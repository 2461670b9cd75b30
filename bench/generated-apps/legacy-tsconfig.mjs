// The tsconfig of a generated NestJS or routing-controllers application: legacy decorators.
export function legacyTsconfig() {
  return JSON.stringify(
    {
      extends: '../../../../tsconfig.base.json',
      compilerOptions: {
        rootDir: 'src',
        outDir: 'dist',
        declaration: false,
        sourceMap: false,
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
        lib: ['ES2023'],
        verbatimModuleSyntax: false,
      },
      include: ['src/**/*.ts'],
    },
    null,
    2,
  );
}
