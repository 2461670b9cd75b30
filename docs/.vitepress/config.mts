// The documentation site (VitePress). `npm run docs:dev` serves it, `npm run docs:build` writes
// docs/.vitepress/dist. The sidebar lists every page of docs/guide, docs/reference and
// docs/migration: a page that exists but is not listed here fails the docs test.
import { defineConfig } from 'vitepress';

export const guide = [
  {
    text: 'Introduction',
    items: [
      { text: 'Getting started', link: '/guide/getting-started' },
      { text: 'Status and limits', link: '/guide/status' },
    ],
  },
  {
    text: 'Essentials',
    items: [
      { text: 'Controllers and parameters', link: '/guide/controllers' },
      { text: 'Supported types', link: '/guide/supported-types' },
      { text: 'Typed request bodies', link: '/guide/typed-bodies' },
      { text: 'Typed responses', link: '/guide/typed-responses' },
      { text: 'Middlewares and CORS', link: '/guide/middlewares' },
      { text: 'Dependency injection', link: '/guide/dependency-injection' },
      { text: 'The server', link: '/guide/server' },
    ],
  },
  {
    text: 'Features',
    items: [
      { text: 'OpenAPI', link: '/guide/openapi' },
      { text: 'Rate limiting', link: '/guide/rate-limiting' },
      { text: 'Compression', link: '/guide/compression' },
    ],
  },
  {
    text: 'Building, testing, running',
    items: [
      { text: 'Build tools', link: '/guide/build-tools' },
      { text: 'Testing', link: '/guide/testing' },
      { text: 'Deployment', link: '/guide/deployment' },
      { text: 'Security and limits', link: '/guide/security' },
      { text: 'Benchmarks', link: '/guide/benchmarks' },
    ],
  },
  {
    text: 'Reference',
    items: [
      { text: 'Diagnostics (KILN codes)', link: '/reference/diagnostics' },
    ],
  },
  {
    text: 'Migration',
    items: [
      { text: 'From NestJS', link: '/migration/nestjs' },
      { text: "From the spec's original framework", link: '/migration/yasui' },
    ],
  },
  {
    text: 'Project',
    items: [{ text: 'Contributing', link: '/contributing' }],
  },
];

export default defineConfig({
  title: 'Kiln',
  description: 'A TypeScript web framework: standard decorators, parameter binding compiled at build time, a minimal node:http core.',
  cleanUrls: false,
  lastUpdated: false,
  // Generated pages (TypeDoc) and the package README included by rate-limiting.md are part of the site;
  // nothing here fetches anything at build time: the site builds offline.
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/guide/getting-started' },
      { text: 'Diagnostics', link: '/reference/diagnostics' },
    ],
    sidebar: guide,
    // Built-in local search (MiniSearch): the index is built with the site, no service is asked.
    search: { provider: 'local' },
    outline: [2, 3],
  },
});
