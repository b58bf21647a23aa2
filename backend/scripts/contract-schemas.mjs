#!/usr/bin/env node
/**
 * Writes backend/src/common/openapi/contract-schemas.generated.ts: the JSON schema of each route's
 * success answer, derived with the TypeScript compiler from what the controller method returns
 * (`Promise<MeResponse>`, `Promise<{ bots: BotResponse[] }>`: the contract's types), or from the
 * contract type named in `@ApiAnswer(status, description, 'ChatAnswerResponse')` for a route that
 * writes its answer itself. ApiAnswer documents the answer from this file, so a response shape is
 * written once, in contract/ (docs/architecture.md#api-reference). Each contract type that an answer
 * contains is written once too, as a `components.schemas` entry the answers point at with `$ref`
 * (`{ bots: { type: 'array', items: { $ref: '#/components/schemas/BotResponse' } } }`).
 *
 *   node backend/scripts/contract-schemas.mjs           writes the file (run by the backend build)
 *   node backend/scripts/contract-schemas.mjs --check   exits 1 when the file is out of date
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const BACKEND = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const OUTPUT = path.join(BACKEND, 'src/common/openapi/contract-schemas.generated.ts');
const CONTRACT_SOURCE = path.resolve(BACKEND, '../contract/src') + path.sep;

function controllerFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return controllerFiles(file);
    return entry.name.endsWith('.controller.ts') ? [file] : [];
  });
}

function decoratorCall(node, name) {
  return (ts.getDecorators(node) ?? [])
    .map((d) => d.expression)
    .find((e) => ts.isCallExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === name);
}

const REF = '#/components/schemas/';

/**
 * `schema` with more keywords beside it. OpenAPI 3.0 ignores the siblings of a `$ref`, so a
 * reference that is nullable or described sits in an `allOf`, as @nestjs/swagger writes its own.
 */
function withKeywords(schema, keywords) {
  return '$ref' in schema ? { allOf: [schema], ...keywords } : { ...schema, ...keywords };
}

/**
 * A JSON schema (OpenAPI 3.0 dialect) of a TypeScript type. A shape the contract exports by name
 * (`named.nameOf`) is written once, into `named.schemas`, and referenced.
 */
function schemaOf(checker, type, named, depth = 0) {
  if (depth > 12) throw new Error(`type too deep: ${checker.typeToString(type)}`);
  const name = named.nameOf(type);
  if (name) {
    if (!(name in named.schemas)) {
      named.schemas[name] = {}; // a placeholder while its properties are described: a type may contain itself
      named.schemas[name] = describe(checker, type, named, depth);
    }
    return { $ref: REF + name };
  }
  return describe(checker, type, named, depth);
}

function describe(checker, type, named, depth) {
  const flags = type.flags;
  if (flags & ts.TypeFlags.Any || flags & ts.TypeFlags.Unknown) {
    throw new Error(`an answer's type is any or unknown: ${checker.typeToString(type)}`);
  }
  if (type.isUnion()) {
    const parts = type.types.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
    const nullable = parts.some((t) => t.flags & ts.TypeFlags.Null);
    const rest = parts.filter((t) => !(t.flags & ts.TypeFlags.Null));
    let schema;
    if (rest.every((t) => t.flags & ts.TypeFlags.BooleanLiteral)) {
      schema =
        rest.length === 2
          ? { type: 'boolean' }
          : { type: 'boolean', enum: rest.map((t) => t === checker.getTrueType()) };
    } else if (rest.every((t) => t.isStringLiteral())) {
      schema = { type: 'string', enum: rest.map((t) => t.value) };
    } else if (rest.every((t) => t.isNumberLiteral())) {
      schema = { type: 'number', enum: rest.map((t) => t.value) };
    } else if (rest.length === 1) {
      schema = schemaOf(checker, rest[0], named, depth + 1);
    } else {
      // `boolean` is true | false: keep it one member.
      const members = [];
      const booleans = rest.filter((t) => t.flags & ts.TypeFlags.BooleanLiteral);
      if (booleans.length === 2) members.push({ type: 'boolean' });
      for (const t of rest)
        if (!(t.flags & ts.TypeFlags.BooleanLiteral) || booleans.length !== 2)
          members.push(schemaOf(checker, t, named, depth + 1));
      schema = members.length === 1 ? members[0] : { oneOf: members };
    }
    return nullable ? withKeywords(schema, { nullable: true }) : schema;
  }
  if (flags & ts.TypeFlags.StringLike)
    return type.isStringLiteral() ? { type: 'string', enum: [type.value] } : { type: 'string' };
  if (flags & ts.TypeFlags.NumberLike)
    return type.isNumberLiteral() ? { type: 'number', enum: [type.value] } : { type: 'number' };
  if (flags & ts.TypeFlags.BooleanLiteral) return { type: 'boolean', enum: [type === checker.getTrueType()] };
  if (flags & ts.TypeFlags.BooleanLike) return { type: 'boolean' };
  if (flags & ts.TypeFlags.Null) return { nullable: true };
  if (type.symbol?.name === 'Date') return { type: 'string', format: 'date-time' };
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    const [item] = checker.getTypeArguments(type);
    return { type: 'array', items: schemaOf(checker, item, named, depth + 1) };
  }
  if (flags & ts.TypeFlags.Object || type.isIntersection()) {
    const properties = {};
    const required = [];
    for (const property of checker.getPropertiesOfType(type)) {
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      const propertyType = declaration
        ? checker.getTypeOfSymbolAtLocation(property, declaration)
        : checker.getTypeOfSymbol(property);
      if (propertyType.getCallSignatures().length > 0) continue;
      const schema = schemaOf(checker, propertyType, named, depth + 1);
      const description = ts
        .displayPartsToString(property.getDocumentationComment(checker))
        .replace(/\s+/g, ' ')
        .trim();
      properties[property.name] = description ? withKeywords(schema, { description }) : schema;
      if (!(property.flags & ts.SymbolFlags.Optional)) required.push(property.name);
    }
    const index = checker.getIndexInfosOfType(type)[0];
    const schema = { type: 'object', properties, ...(required.length ? { required } : {}) };
    if (index) schema.additionalProperties = schemaOf(checker, index.type, named, depth + 1);
    return schema;
  }
  throw new Error(`no schema for ${checker.typeToString(type)}`);
}

/** Whether a type names a shape declared in the contract (contract/src), itself or as its array's items. */
function fromContract(type) {
  const declarations = (type.aliasSymbol ?? type.symbol)?.declarations ?? [];
  return declarations.some((d) => d.getSourceFile().fileName.startsWith(CONTRACT_SOURCE));
}

/**
 * The contract's named shapes: `nameOf(type)` is the name the contract exports an object type
 * under (an interface, or an alias of an object, intersection or union of objects), undefined for
 * anything else (a string union stays inline, as does a generic type, whose name is not one shape).
 */
function contractNames(checker, exported) {
  const names = new Map();
  for (const [name, symbol] of exported) {
    const resolved = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    if (!(resolved.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias))) continue;
    if (resolved.declarations?.some((d) => d.typeParameters?.length)) continue;
    names.set(resolved, name);
  }
  const isShape = (type) => {
    if (type.isUnion())
      return type.types.some((t) => !(t.flags & (ts.TypeFlags.Literal | ts.TypeFlags.Null | ts.TypeFlags.Undefined)));
    return (
      type.isIntersection() ||
      (!!(type.flags & ts.TypeFlags.Object) && !checker.isArrayType(type) && !checker.isTupleType(type))
    );
  };
  return {
    schemas: {},
    nameOf: (type) => {
      const name = names.get(type.aliasSymbol ?? type.symbol);
      return name && isShape(type) ? name : undefined;
    },
  };
}

/**
 * Builds the routes' answer schemas (`{ 'BotsController.list': {...} }`), the types named by
 * ApiAnswer, and the contract's shapes they reference (`schemas`, OpenAPI's components.schemas).
 */
export function generate() {
  const configFile = path.join(BACKEND, 'tsconfig.json');
  const config = ts.getParsedCommandLineOfConfigFile(
    configFile,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  const files = controllerFiles(path.join(BACKEND, 'src/modules'));
  const program = ts.createProgram(files, { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const contract = program.getSourceFile(path.join(CONTRACT_SOURCE, 'index.ts'));
  const routes = {};
  const types = {};
  const notFromContract = [];
  const exported = new Map(checker.getExportsOfModule(checker.getSymbolAtLocation(contract)).map((s) => [s.name, s]));
  const named = contractNames(checker, exported);
  for (const file of files.sort()) {
    const source = program.getSourceFile(file);
    for (const statement of source.statements) {
      if (!ts.isClassDeclaration(statement) || !statement.name || !decoratorCall(statement, 'Controller')) continue;
      for (const member of statement.members) {
        if (!ts.isMethodDeclaration(member)) continue;
        const answer = decoratorCall(member, 'ApiAnswer');
        if (!answer) continue;
        const key = `${statement.name.text}.${member.name.getText(source)}`;
        const typeName = answer.arguments[2];
        if (typeName) {
          if (!ts.isStringLiteral(typeName))
            throw new Error(`${key}: ApiAnswer's third argument must be a contract type's name`);
          const symbol = exported.get(typeName.text);
          if (!symbol) throw new Error(`${key}: ${typeName.text} is not a type of the contract`);
          const resolved = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
          types[typeName.text] = schemaOf(checker, checker.getDeclaredTypeOfSymbol(resolved), named);
          continue;
        }
        const signature = checker.getSignatureFromDeclaration(member);
        let returned = checker.getReturnTypeOfSignature(signature);
        if (returned.symbol?.name === 'Promise')
          returned = checker.getTypeArguments(returned)[0] ?? checker.getAwaitedType(returned);
        if (returned.flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined)) continue;
        routes[key] = schemaOf(checker, returned, named);
        const parts =
          returned.flags & ts.TypeFlags.Object && !fromContract(returned)
            ? checker.getPropertiesOfType(returned).map((p) => checker.getTypeOfSymbol(p))
            : [returned];
        const leaves = parts.map((t) => (checker.isArrayType(t) ? checker.getTypeArguments(t)[0] : t));
        if (!leaves.some((t) => fromContract(t))) notFromContract.push(key);
      }
    }
  }
  const schemas = Object.fromEntries(
    Object.keys(named.schemas)
      .sort()
      .map((name) => [name, named.schemas[name]]),
  );
  return { routes, types, schemas, notFromContract };
}

export function render({ routes, types, schemas, notFromContract }) {
  return `// Generated by backend/scripts/contract-schemas.mjs from the controllers' return types and the
// contract (contract/src): do not edit. \`npm run build -w backend\` writes it again; the unit spec
// contract-schemas fails while it is out of date. \`schemas\` are the contract's shapes that the answers
// reference (\`$ref: '#/components/schemas/<name>'\`): buildOpenApiDocument adds them to the document.
// prettier-ignore
export const CONTRACT_SCHEMAS = ${JSON.stringify({ routes, types, schemas }, null, 2)} as const;

/** Routes whose answer names no contract type (primitive fields only, such as \`{ apiKey: string }\`). */
// prettier-ignore
export const ANSWERS_WITHOUT_CONTRACT_TYPE: readonly string[] = ${JSON.stringify(notFromContract)};
`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = render(generate());
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(OUTPUT) ? fs.readFileSync(OUTPUT, 'utf8') : '';
    if (current !== text) {
      console.error(
        `${path.relative(process.cwd(), OUTPUT)} is out of date: run node backend/scripts/contract-schemas.mjs`,
      );
      process.exit(1);
    }
  } else {
    fs.writeFileSync(OUTPUT, text);
    console.log(`wrote ${path.relative(process.cwd(), OUTPUT)}`);
  }
}
