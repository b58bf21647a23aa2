import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * One definition per shape (docs/architecture.md#api-reference): every request class in a
 * `*.dto.ts` file implements its type from @botsmith/contract, so the API, the dashboard and the
 * widget agree on it and the compiler checks the class against it (`npm run typecheck`). A class
 * that extends such a class and adds nothing passes too. This spec runs in `npm test`'s backend
 * unit step and fails when a request class has no contract type.
 */
const MODULES = path.resolve(import.meta.dirname, '../../modules');
const CONTRACT = '@botsmith/contract';

function dtoFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return dtoFiles(file);
    return entry.name.endsWith('.dto.ts') ? [file] : [];
  });
}

/** The problems of one DTO file: each class that implements no type from the contract. */
export function requestClassProblems(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const fromContract = new Set<string>();
  const classes = new Map<string, ts.ClassDeclaration>();
  for (const statement of source.statements) {
    if (
      ts.isImportDeclaration(statement) &&
      ts.isStringLiteral(statement.moduleSpecifier) &&
      statement.moduleSpecifier.text === CONTRACT
    ) {
      const bindings = statement.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) for (const e of bindings.elements) fromContract.add(e.name.text);
    }
    if (ts.isClassDeclaration(statement) && statement.name) classes.set(statement.name.text, statement);
  }
  const implementsContract = (node: ts.ClassDeclaration): boolean =>
    (node.heritageClauses ?? [])
      .filter((clause) => clause.token === ts.SyntaxKind.ImplementsKeyword)
      .some((clause) =>
        clause.types.some((type) => ts.isIdentifier(type.expression) && fromContract.has(type.expression.text)),
      );
  const passes = (node: ts.ClassDeclaration, seen = new Set<string>()): boolean => {
    if (implementsContract(node)) return true;
    const parent = (node.heritageClauses ?? [])
      .find((clause) => clause.token === ts.SyntaxKind.ExtendsKeyword)
      ?.types[0]?.expression.getText(source);
    const base = parent ? classes.get(parent) : undefined;
    if (!base || seen.has(parent!) || node.members.some((m) => ts.isPropertyDeclaration(m))) return false;
    return passes(base, seen.add(parent!));
  };
  return [...classes]
    .filter(([, node]) => !passes(node))
    .map(([name]) => `${path.relative(MODULES, fileName)}: class ${name} implements no type from ${CONTRACT}`);
}

describe('request DTOs', () => {
  it('each implement their type from the contract', () => {
    const files = dtoFiles(MODULES);
    expect(files.length).toBeGreaterThanOrEqual(13);
    const classes = files.flatMap((file) => [...fs.readFileSync(file, 'utf8').matchAll(/^export class /gm)]);
    expect(classes.length).toBeGreaterThanOrEqual(28);
    expect(files.flatMap((file) => requestClassProblems(file, fs.readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('the check names a class without a contract type, or with a local one, or a subclass that adds a field', () => {
    const file = path.join(MODULES, 'example/example.dto.ts');
    const text = `
      import { IsString } from 'class-validator';
      import { type LoginRequest } from '@botsmith/contract';
      interface Local { name: string }
      export class GoodDto implements LoginRequest { email!: string; password!: string; }
      export class SameDto extends GoodDto {}
      export class WiderDto extends GoodDto { extra?: string; }
      export class BareDto { @IsString() name!: string; }
      export class LocalDto implements Local { name!: string; }
    `;
    expect(requestClassProblems(file, text)).toEqual([
      'example/example.dto.ts: class WiderDto implements no type from @botsmith/contract',
      'example/example.dto.ts: class BareDto implements no type from @botsmith/contract',
      'example/example.dto.ts: class LocalDto implements no type from @botsmith/contract',
    ]);
  });
});
