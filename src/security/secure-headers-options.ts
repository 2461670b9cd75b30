import { kilnError } from '../kiln-error.js';
import { isHeaderValue } from '../response/header-rules.js';

/**
 * A Content-Security-Policy as directives: `{ 'default-src': ["'self'"], 'upgrade-insecure-requests': true }`.
 * A directive set to `false` is left out (to remove one of the defaults).
 */
export type CspDirectives = Readonly<Record<string, readonly string[] | string | boolean>>;

/**
 * What `secureHeaders()` sends. Every header takes its value as a string, or `false` to leave it
 * out; `undefined` keeps the default.
 */
export interface SecureHeadersOptions {
  /** Default `max-age=31536000; includeSubDomains` (browsers ignore it over plain HTTP). */
  readonly strictTransportSecurity?: string | false;
  /** Default `nosniff`. */
  readonly xContentTypeOptions?: string | false;
  /** Default `no-referrer`. */
  readonly referrerPolicy?: string | false;
  /** Default `same-origin`. */
  readonly crossOriginOpenerPolicy?: string | false;
  /** Default `same-origin`. */
  readonly crossOriginResourcePolicy?: string | false;
  /** Default off; `require-corp` or `credentialless` isolates the page (and blocks cross-origin images without CORP). */
  readonly crossOriginEmbedderPolicy?: string | false;
  /** Default `DENY`; the CSP's `frame-ancestors` says the same to browsers that read it. */
  readonly xFrameOptions?: string | false;
  /** Default `?1`. */
  readonly originAgentCluster?: string | false;
  /** Default `off`. */
  readonly xDnsPrefetchControl?: string | false;
  /** Default `none`. */
  readonly xPermittedCrossDomainPolicies?: string | false;
  /** Default `0`: the old XSS auditors did more harm than good. */
  readonly xXssProtection?: string | false;
  /**
   * Default `false`, or the `permissions-policy` value to send (`camera=(), geolocation=()`).
   */
  readonly permissionsPolicy?: string | false;
  /**
   * The Content-Security-Policy: directives merged over the defaults (`default-src 'self'`,
   * `frame-ancestors 'none'`, `base-uri 'self'`, `form-action 'self'`, `object-src 'none'`), a whole
   * policy as a string, or `false` for none. Never sent on the docs page of `createServer({ docs })`,
   * which has its own stricter policy.
   */
  readonly contentSecurityPolicy?: CspDirectives | string | false;
  /** Send the policy as `Content-Security-Policy-Report-Only` (try a policy before enforcing it). */
  readonly contentSecurityPolicyReportOnly?: boolean;
}

/** The header name each plain option sends, with its default. */
export const plainHeaders = {
  strictTransportSecurity: ['strict-transport-security', 'max-age=31536000; includeSubDomains'],
  xContentTypeOptions: ['x-content-type-options', 'nosniff'],
  referrerPolicy: ['referrer-policy', 'no-referrer'],
  crossOriginOpenerPolicy: ['cross-origin-opener-policy', 'same-origin'],
  crossOriginResourcePolicy: ['cross-origin-resource-policy', 'same-origin'],
  crossOriginEmbedderPolicy: ['cross-origin-embedder-policy', false],
  xFrameOptions: ['x-frame-options', 'DENY'],
  originAgentCluster: ['origin-agent-cluster', '?1'],
  xDnsPrefetchControl: ['x-dns-prefetch-control', 'off'],
  xPermittedCrossDomainPolicies: ['x-permitted-cross-domain-policies', 'none'],
  xXssProtection: ['x-xss-protection', '0'],
  permissionsPolicy: ['permissions-policy', false],
} as const satisfies Record<string, readonly [string, string | false]>;

const defaultDirectives: CspDirectives = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
  'object-src': ["'none'"],
};

const knownOptions = new Set([...Object.keys(plainHeaders), 'contentSecurityPolicy', 'contentSecurityPolicyReportOnly']);
const directiveName = /^[a-z][a-z0-9-]*$/;

function checkValue(option: string, value: string): string {
  if (!isHeaderValue(value) || value.trim() === '') throw kilnError('KILN080', 'headerValue', option, value);
  return value;
}

/** A policy from directives over the defaults, as one header value. */
function policyText(directives: CspDirectives): string {
  const merged: Record<string, readonly string[] | string | boolean> = { ...defaultDirectives, ...directives };
  const parts: string[] = [];
  for (const [name, value] of Object.entries(merged)) {
    if (!directiveName.test(name)) throw kilnError('KILN080', 'directiveName', name);
    if (value === false) continue;
    if (value === true) {
      parts.push(name);
      continue;
    }
    const sources = typeof value === 'string' ? [value] : value;
    if (!Array.isArray(sources) || sources.some((source) => typeof source !== 'string' || /[;,]/.test(source) || source.trim() === ''))
      throw kilnError('KILN080', 'directiveSources', name);
    parts.push(sources.length === 0 ? name : `${name} ${sources.join(' ')}`);
  }
  return parts.join('; ');
}

/**
 * The headers `options` ask for, as a flat [name, value, ...] list, checked once at start-up
 * (a KILN080 KilnError names the bad option). `contentSecurityPolicy` comes last, by itself, so that
 * the docs page can go without it.
 */
export function resolveSecureHeaders(options: SecureHeadersOptions): { headers: string[]; policy: [string, string] | undefined } {
  if (options === null || typeof options !== 'object') throw kilnError('KILN080', 'options');
  for (const key of Object.keys(options))
    if (!knownOptions.has(key)) throw kilnError('KILN080', 'unknownOption', key, [...knownOptions].join(', '));
  const headers: string[] = [];
  for (const [option, [name, fallback]] of Object.entries(plainHeaders)) {
    const given = options[option as keyof typeof plainHeaders];
    const value = given === undefined ? fallback : given;
    if (value === false) continue;
    if (typeof value !== 'string') throw kilnError('KILN080', 'notAString', option, typeof value);
    headers.push(name, checkValue(option, value));
  }
  const csp = options.contentSecurityPolicy;
  const policyName = options.contentSecurityPolicyReportOnly === true ? 'content-security-policy-report-only' : 'content-security-policy';
  let policy: [string, string] | undefined;
  if (csp === undefined) policy = [policyName, policyText({})];
  else if (typeof csp === 'string') policy = [policyName, checkValue('contentSecurityPolicy', csp)];
  else if (csp !== false) {
    if (csp === null || typeof csp !== 'object') throw kilnError('KILN080', 'policy');
    policy = [policyName, policyText(csp)];
  }
  return { headers, policy };
}
