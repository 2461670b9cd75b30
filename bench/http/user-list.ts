// Scenario (e)'s data: 100 user summaries, as a list endpoint answers them (nested address, dates
// already as ISO strings, optional fields present on some users only). The values hold exactly
// the properties of their type, so JSON.stringify (raw node:http, Hono, NestJS, routing-controllers),
// Fastify's response schema and Kiln's typed serialiser all answer the same JSON.
import type { tags } from 'typia';

export interface UserAddress {
  street: string;
  city: string;
  zip: string;
  country: string;
}

export interface UserSummary {
  id: number;
  name: string;
  email: string;
  active: boolean;
  roles: string[];
  createdAt: string & tags.Format<'date-time'>;
  lastLoginAt?: string & tags.Format<'date-time'>;
  nickname?: string;
  score: number;
  address: UserAddress;
}

const cities = ['Springfield', 'Shelbyville', 'Ogdenville', 'North Haverbrook', 'Capital City'];

export const userList: UserSummary[] = Array.from({ length: 100 }, (_, i) => {
  const user: UserSummary = {
    id: i + 1,
    name: `User ${i + 1}`,
    email: `user${i + 1}@example.com`,
    active: i % 3 !== 0,
    roles: i % 10 === 0 ? ['admin', 'member'] : ['member'],
    createdAt: new Date(Date.UTC(2024, i % 12, (i % 28) + 1, 9, 30)).toISOString(),
    score: Math.round(i * 7.31 * 100) / 100,
    address: { street: `${i + 1} Main Street`, city: cities[i % cities.length]!, zip: String(10000 + i * 17), country: 'US' },
  };
  if (i % 2 === 0) user.lastLoginAt = new Date(Date.UTC(2026, 10, (i % 28) + 1, 12)).toISOString();
  if (i % 4 === 1) user.nickname = `nick${i}`;
  return user;
});

/** Fastify's response schema for the list (fast-json-stringify writes from it). */
export const userListSchema = {
  type: 'array',
  items: {
    type: 'object',
    required: ['id', 'name', 'email', 'active', 'roles', 'createdAt', 'score', 'address'],
    properties: {
      id: { type: 'integer' },
      name: { type: 'string' },
      email: { type: 'string' },
      active: { type: 'boolean' },
      roles: { type: 'array', items: { type: 'string' } },
      createdAt: { type: 'string', format: 'date-time' },
      lastLoginAt: { type: 'string', format: 'date-time' },
      nickname: { type: 'string' },
      score: { type: 'number' },
      address: {
        type: 'object',
        required: ['street', 'city', 'zip', 'country'],
        properties: { street: { type: 'string' }, city: { type: 'string' }, zip: { type: 'string' }, country: { type: 'string' } },
      },
    },
  },
} as const;
