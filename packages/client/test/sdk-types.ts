// The SDK's own declared types, read with the TypeScript compiler API, for the drift test to
// compare each field's primitive type with the server's document: string, number, boolean,
// null, the literal values of an enumeration, the items of an array. Read from the *-types.ts
// files themselves, not from a second table kept by hand beside them.
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** A field's type as the sorted set of its alternatives: `string`, `"card"`, `array<number>`, `object`, `null`… */
export type TypeDescription = string[];

const INDEX = fileURLToPath(new URL('../src/index.ts', import.meta.url));

/** The fields of each type the SDK exports, by type name, with each field's description (undefined aside: optional is compared apart). */
export function sdkFieldTypes(): (typeName: string) => Record<string, TypeDescription> | undefined {
  const program = ts.createProgram([INDEX], {
    strict: true, noEmit: true, skipLibCheck: true, allowImportingTsExtensions: true,
    module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2023,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'], types: [],
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(INDEX);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`cannot read ${INDEX}`);
  const exported = new Map(checker.getExportsOfModule(module).map((s) => [s.name, s]));

  const describe = (type: ts.Type): TypeDescription => {
    const out = new Set<string>();
    const visit = (t: ts.Type): void => {
      if (t.isUnion()) return t.types.forEach(visit);
      const f = t.flags;
      if (f & ts.TypeFlags.Undefined) return;
      if (f & ts.TypeFlags.Null) out.add('null');
      else if (t.isStringLiteral() || t.isNumberLiteral()) out.add(JSON.stringify(t.value));
      else if (f & ts.TypeFlags.BooleanLiteral) out.add(checker.typeToString(t));
      else if (f & ts.TypeFlags.String) out.add('string');
      else if (f & ts.TypeFlags.Number) out.add('number');
      else if (f & ts.TypeFlags.Boolean) out.add('boolean');
      else if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) out.add('any');
      else if (checker.isArrayType(t)) out.add(`array<${describe(checker.getTypeArguments(t as ts.TypeReference)[0] ?? t).join('|')}>`);
      else if (f & ts.TypeFlags.Object) out.add('object');
      else out.add(`unsupported ${checker.typeToString(t)}`);
    };
    visit(type);
    // `boolean` is `true | false` to the checker.
    if (out.has('true') && out.has('false')) {
      out.delete('true');
      out.delete('false');
      out.add('boolean');
    }
    return [...out].sort();
  };

  return (typeName) => {
    let symbol = exported.get(typeName);
    if (!symbol) return undefined;
    if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    return Object.fromEntries(type.getProperties().map((p) => [p.name, describe(checker.getTypeOfSymbol(p))]));
  };
}

/**
 * The same description of a field of the document: `integer` is a `number` to TypeScript, an
 * `enum` or `const` its literal values, `anyOf`/`oneOf` each alternative, any object `object`.
 */
export function schemaType(s: unknown, resolve: (s: never) => unknown): TypeDescription {
  const out = new Set<string>();
  const visit = (x: unknown): void => {
    const r = resolve(x as never) as Record<string, unknown> | undefined;
    if (!r) return;
    if (r.nullable === true) out.add('null');
    if (r.const !== undefined) return void out.add(JSON.stringify(r.const));
    if (Array.isArray(r.enum)) return r.enum.forEach((v) => out.add(v === null ? 'null' : JSON.stringify(v)));
    const types = Array.isArray(r.type) ? r.type : r.type === undefined ? [] : [r.type];
    if (types.includes('object') || r.properties || r.additionalProperties) out.add('object');
    else if (Array.isArray(r.anyOf) || Array.isArray(r.oneOf)) [...((r.anyOf as unknown[]) ?? []), ...((r.oneOf as unknown[]) ?? [])].forEach(visit);
    else if (types.length === 0) out.add('any');
    for (const t of types) {
      if (t === 'array') out.add(`array<${schemaType(r.items, resolve).join('|')}>`);
      else if (t === 'integer') out.add('number');
      else if (t !== 'object') out.add(String(t));
    }
  };
  visit(s);
  return [...out].sort();
}
