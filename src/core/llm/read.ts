/** Checks on parsed answers: each throws an invalid-json LlmError naming what was missing. */
import { LlmError } from './types';

export function readString(json: unknown, field: string): string {
  const value = (json as Record<string, unknown> | null)?.[field];
  if (typeof value !== 'string') throw new LlmError('invalid-json', `the answer has no "${field}" string`);
  if (value.trim() === '') throw new LlmError('empty', `the answer's "${field}" is empty`);
  return value.trim();
}

export function readStrings(json: unknown, field: string): string[] {
  const value = Array.isArray(json) ? json : (json as Record<string, unknown> | null)?.[field];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new LlmError('invalid-json', `the answer has no "${field}" list of strings`);
  const kept = value.map((v: string) => v.trim()).filter((v) => v !== '');
  if (kept.length === 0) throw new LlmError('empty', `the answer's "${field}" list is empty`);
  return kept;
}

export function readNumbers(json: unknown, field: string): unknown[] {
  const value = Array.isArray(json) ? json : (json as Record<string, unknown> | null)?.[field];
  if (!Array.isArray(value)) throw new LlmError('invalid-json', `the answer has no "${field}" list`);
  return value;
}

export const objectSchema = (field: string, type: Record<string, unknown>): Record<string, unknown> => ({
  type: 'object',
  properties: { [field]: type },
  required: [field],
  additionalProperties: false,
});
