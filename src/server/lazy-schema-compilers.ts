// Route schemas compiled on first use (docs/performance.md "Idle memory"). Fastify compiles every route's validators
// (Ajv) and response serializers (fast-json-stringify) when the app becomes ready; an idle daemon would then hold
// Ajv, its formats and a compiled function per route and status code although most are never called (the poll fast
// path answers `GET /skills` without Fastify at all). These builders hand Fastify a stand-in per schema that compiles
// the real function on its first call, with Fastify's own default compilers and the same options, and delegates to it
// from then on: every answer and every validation error stays what the default compilers give.
//
// A broken schema would now fail at its first request instead of at start-up: the tests build the app once with
// `eager` compilers, so that every route schema is still compiled by the suite.

import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type ValidatorFactory = NonNullable<CompilersFactory['buildValidator']>;
type SerializerFactory = NonNullable<CompilersFactory['buildSerializer']>;
type ValidatorCompiler = ReturnType<ValidatorFactory>;
type SerializerCompiler = ReturnType<SerializerFactory>;
type RouteSchemaDef = Parameters<ValidatorCompiler>[0];
type SerializerRouteDef = Parameters<SerializerCompiler>[0];
type Serializer = ReturnType<SerializerCompiler>;

/** A compiled validator as Fastify calls it: `(data, dataContext?)`, with `errors` after a failed call. */
interface Validator {
  (data: unknown, dataContext?: unknown): unknown;
  errors?: unknown;
  schemaEnv?: unknown;
}

/** Fastify's own defaults, resolved from Fastify's install so that they are the very packages it would use. */
function fastifyRequire(): NodeJS.Require {
  const local = createRequire(import.meta.url);
  return createRequire(local.resolve('fastify'));
}

export interface LazySchemaCompilerOptions {
  /**
   * Compile each schema when Fastify asks for it (at start-up), as the default compilers do: for tests that hold
   * every route schema to compiling.
   */
  eager?: boolean;
  /** Returns Fastify's default validator selector (@fastify/ajv-compiler); called at most once, when first needed. */
  loadValidatorSelector?: () => () => ValidatorFactory;
  /** Returns the default serializer selector (@fastify/fast-json-stringify-compiler); as above. */
  loadSerializerSelector?: () => () => SerializerFactory;
}

export type SchemaCompilers = Required<Pick<CompilersFactory, 'buildValidator' | 'buildSerializer'>>;

/** The `schemaController.compilersFactory` of a Fastify instance: validators and serializers compiled on first call. */
export function lazySchemaCompilers(options: LazySchemaCompilerOptions = {}): SchemaCompilers {
  const {
    eager = false,
    loadValidatorSelector = () => fastifyRequire()('@fastify/ajv-compiler'),
    loadSerializerSelector = () => fastifyRequire()('@fastify/fast-json-stringify-compiler'),
  } = options;
  // One selector per Fastify instance, as Fastify keeps one: its pool shares an Ajv per set of options and schemas.
  let validatorSelector: ValidatorFactory | undefined;
  let serializerSelector: SerializerFactory | undefined;

  const buildValidator = ((externalSchemas: unknown, ajvOptions: unknown) => {
    let compiler: ValidatorCompiler | undefined;
    const compile = (route: RouteSchemaDef): Validator => {
      validatorSelector ??= loadValidatorSelector()();
      compiler ??= (validatorSelector as (schemas: unknown, options: unknown) => ValidatorCompiler)(
        externalSchemas,
        ajvOptions,
      );
      return compiler(route) as Validator;
    };
    return (route: RouteSchemaDef) => (eager ? compile(route) : deferredValidator(() => compile(route)));
  }) as ValidatorFactory;

  const buildSerializer = ((externalSchemas: unknown, serializerOptions: unknown) => {
    let compiler: SerializerCompiler | undefined;
    const compile = (route: SerializerRouteDef): Serializer => {
      serializerSelector ??= loadSerializerSelector()();
      compiler ??= (serializerSelector as (schemas: unknown, options: unknown) => SerializerCompiler)(
        externalSchemas,
        serializerOptions,
      );
      return compiler(route);
    };
    return (route: SerializerRouteDef) => (eager ? compile(route) : deferredSerializer(() => compile(route)));
  }) as SerializerFactory;

  return { buildValidator, buildSerializer };
}

/**
 * A validator that compiles the real one on first use. Fastify reads `schemaEnv` before each call (an Ajv function
 * has one, and is then given its parent object so that it may coerce or default the root value) and `errors` after a
 * failed one: both are the real function's.
 */
function deferredValidator(compile: () => Validator): Validator {
  let real: Validator | undefined;
  const resolve = () => {
    real ??= compile();
    return real;
  };
  const validator = ((data: unknown, dataContext?: unknown) =>
    dataContext === undefined ? resolve()(data) : resolve()(data, dataContext)) as Validator;
  Object.defineProperties(validator, {
    errors: { get: () => real?.errors },
    schemaEnv: { get: () => resolve().schemaEnv },
  });
  return validator;
}

/** A serializer that compiles the real one on first use. */
function deferredSerializer(compile: () => Serializer): Serializer {
  let real: Serializer | undefined;
  return (data: unknown) => {
    real ??= compile();
    return real(data);
  };
}
