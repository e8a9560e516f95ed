// Checks that an answer is an error in the shape of docs/api.md §Errors: JSON `{ statusCode, code, error, message }`,
// nothing more, with the status line, `statusCode` and the HTTP reason phrase agreeing.

import assert from 'node:assert/strict';
import { STATUS_CODES } from 'node:http';
import type { RawResponse } from './raw-http.js';

export interface ApiError {
  statusCode: number;
  code: string;
  error: string;
  message: string;
}

/**
 * The status of every code of docs/api.md §Errors, plus the daemon's load shedding (`BadRequest` also stands for other 4xx
 * refusals of the HTTP layer).
 */
export const API_ERROR_STATUS: Readonly<Record<string, number>> = {
  InvalidPath: 400,
  BadRequest: 400,
  Unauthorized: 401,
  ForbiddenHost: 403,
  ForbiddenOrigin: 403,
  PathEscapesSkill: 403,
  SkillNotFound: 404,
  FileNotFound: 404,
  NotADirectory: 404,
  NotAFile: 409,
  TooLarge: 413,
  NotReady: 503,
  // Load shedding (SECURITY.md §Overload): a busy machine may answer any route but /health this way.
  Overloaded: 503,
};

/** Parses and checks the shape of an error answer (GET: a body is required) and returns its body. */
export function apiErrorOf(response: RawResponse, label = ''): ApiError {
  assert.ok(response.status >= 400, `${label}: expected an error, got ${response.status}`);
  assert.equal(response.headers['content-type'], 'application/json; charset=utf-8', label);
  let body: ApiError;
  try {
    body = JSON.parse(response.body);
  } catch {
    assert.fail(`${label}: error body is not JSON: ${JSON.stringify(response.body.slice(0, 200))}`);
  }
  assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'message', 'statusCode'], label);
  assert.equal(body.statusCode, response.status, label);
  assert.equal(body.error, STATUS_CODES[response.status], label);
  assert.equal(typeof body.message, 'string', label);
  const expectedStatus = API_ERROR_STATUS[body.code];
  assert.ok(expectedStatus !== undefined, `${label}: ${body.code} is not an error code of docs/api.md`);
  // BadRequest also covers the HTTP layer's own 4xx refusals (414, 431): the status then says which one.
  if (body.code === 'BadRequest') assert.ok(response.status >= 400 && response.status < 500, label);
  else assert.equal(response.status, expectedStatus, `${label}: ${body.code}`);
  return body;
}

/** Asserts an exact error answer. */
export function assertApiError(response: RawResponse, status: number, code: string, message: string, label = ''): void {
  assert.equal(response.status, status, `${label}: ${response.body.slice(0, 300)}`);
  const body = apiErrorOf(response, label);
  assert.deepEqual(body, { statusCode: status, code, error: STATUS_CODES[status], message }, label);
}
