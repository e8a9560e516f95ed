// Named schemas of the OpenAPI document: every schema that carries a `title` (`Skill`, `ErrorBody`, `IndexEvent`, …,
// set where the TypeBox schema is defined) is moved to `components/schemas/<title>` and referenced from where it was,
// so client generators emit one named type per shape instead of anonymous copies. Route schemas stay plain inline
// TypeBox: Fastify validates and serialises them as before, and their static types are untouched.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface Named {
  schema: JsonObject;
  /** The shape without its description, to tell one schema used twice from two schemas with one title. */
  canonical: string;
  site: string;
}

const COMPONENT_NAME = /^[A-Z][A-Za-z0-9]*$/;
const REF_PREFIX = '#/components/schemas/';

export function hoistNamedSchemas<T extends object>(document: T): T {
  const named = new Map<string, Named>();
  const paths = replaceNamed((document as JsonObject).paths ?? {}, named, 'paths');
  const components = ((document as JsonObject).components ?? {}) as JsonObject;
  const schemas = { ...((components.schemas ?? {}) as JsonObject) };
  for (const name of [...named.keys()].sort()) {
    if (name in schemas) throw new Error(`OpenAPI: component schema "${name}" is defined twice`);
    schemas[name] = (named.get(name) as Named).schema;
  }
  return { ...document, paths, components: { ...components, schemas } };
}

function replaceNamed(value: Json, named: Map<string, Named>, site: string): Json {
  if (Array.isArray(value)) return value.map((item, i) => replaceNamed(item, named, `${site}/${i}`));
  if (value === null || typeof value !== 'object') return value;
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value)) out[key] = replaceNamed(child, named, `${site}/${key}`);
  const title = out.title;
  if (typeof title !== 'string' || !COMPONENT_NAME.test(title)) return out;

  // Where a shape is used, its description may say what it is there (a list's order): that text stays beside the
  // reference; the component keeps the first description seen.
  const { description, ...shape } = out;
  const canonical = JSON.stringify(shape);
  const known = named.get(title);
  if (known === undefined) {
    named.set(title, { schema: out, canonical, site });
  } else if (known.canonical !== canonical) {
    throw new Error(`OpenAPI: two different schemas are titled "${title}" (at ${known.site} and ${site})`);
  }
  const componentDescription = (named.get(title) as Named).schema.description;
  const ref: JsonObject = { $ref: `${REF_PREFIX}${title}` };
  if (description !== undefined && description !== componentDescription) ref.description = description;
  return ref;
}
