// The docs site's own TypeDoc plugin (typedoc.json `plugin`), run with typedoc-plugin-markdown, whose pages
// VitePress serves as the site's API reference (docs/api/, generated). Each step fixes something TypeDoc gets
// wrong for this repository's reference and the package READMEs it shows; each says why.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import {
  Converter,
  QueryType,
  ReferenceType,
  ReflectionKind,
  RendererEvent,
  Type,
  UnionType,
} from 'typedoc';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '../..');
/** Where the repository lives: the `repository` of every packages/*\/package.json, at its main branch. */
export const REPOSITORY = 'https://github.com/connector-sdk/connector-sdk';

/** Re-exports of other packages' symbols that belong in the reference: their package and where its docs are. */
const EXTERNAL_RE_EXPORTS = {
  z: { from: 'zod', url: 'https://zod.dev/api' },
  HTTPError: { from: 'ky', url: 'https://github.com/sindresorhus/ky#httperror' },
  TimeoutError: { from: 'ky', url: 'https://github.com/sindresorhus/ky#timeouterror' },
};

/**
 * Exports tagged `@internal` that a public entry point still has, because another of our packages imports them
 * through it (the bindings share core's body limits and path rule). Anything else tagged `@internal` and
 * exported from an entry point is a warning, so the list cannot grow unnoticed.
 */
const INTERNAL_EXPORTS_SHARED_BY_PACKAGES = new Set([
  '@connector-sdk/core:BodyBudget',
  '@connector-sdk/core:DEFAULT_BODY_LIMITS',
  '@connector-sdk/core:bodyBudgetExceeded',
  '@connector-sdk/core:isUnsafePath',
]);

/**
 * Where a link to a file of the repository should go: a guide (docs/*.md) or the README opens the site's page
 * for it, as a root-relative path VitePress prefixes with the site's base; any other file or folder opens on
 * GitHub's main branch.
 */
function repositoryUrl(absolute, anchor) {
  const path = relative(root, absolute).split('\\').join('/');
  const hash = anchor ? `#${anchor}` : '';
  if (path === 'README.md') return `/${hash}`;
  const guide = /^docs\/([\w-]+)\.md$/.exec(path);
  if (guide) return `/${guide[1]}${hash}`;
  const kind = existsSync(absolute) && statSync(absolute).isDirectory() ? 'tree' : 'blob';
  return `${REPOSITORY}/${kind}/main/${path}${hash}`;
}

/** Every list of comment parts a reflection renders: its comment, block tags, readme, document content. */
function* partLists(reflection) {
  if (reflection.comment) {
    yield reflection.comment.summary;
    for (const tag of reflection.comment.blockTags) yield tag.content;
  }
  if (reflection.readme) yield reflection.readme;
  if (reflection.content) yield reflection.content;
}

/**
 * Markdown links TypeDoc's lexer missed, as `[text](target)` with a relative target: it reads `` `\` `` as an
 * escaped backtick, so it takes what follows, up to the next backtick, for inline code and leaves its links
 * alone, while markdown renders them as links (errors-sessions-secrets.md's `INVALID_PATH` row).
 */
const MISSED_LINK = /\]\((?!https?:|mailto:|#)([^)\s#]+)(?:#([^)\s]*))?\)/g;

/** Text, or what the lexer took for inline code while markdown does not (see {@link MISSED_LINK}). */
const mayHoldMissedLink = (part) =>
  part.kind === 'text' || (part.kind === 'code' && /^`[^`]/.test(part.text) && part.text.includes('\n'));

/**
 * Links from the package READMEs to files that are not pages of the reference (the guides, the examples,
 * `bench/`): TypeDoc copies those files into media/ as raw text, so a reader got a bare file and no way on.
 * A guide opens its page of the site; anything else opens the repository.
 */
function linkFilesToRepository(project, logger) {
  const reflections = [project, ...Object.values(project.reflections)];
  for (const reflection of reflections) {
    const source = project.files.getReflectionPath(reflection);
    for (const parts of partLists(reflection)) {
      for (let i = 0; i < parts.length; i++) {
        const part = parts[i];
        if (part.kind === 'relative-link' && typeof part.target === 'number') {
          const target = project.files.resolve(part.target, project);
          if (typeof target === 'string' && !relative(root, target).startsWith('..')) {
            parts[i] = { kind: 'text', text: repositoryUrl(target, part.targetAnchor) };
          }
        } else if (mayHoldMissedLink(part) && source && MISSED_LINK.test(part.text)) {
          MISSED_LINK.lastIndex = 0;
          const replaced = [];
          let last = 0;
          for (const match of part.text.matchAll(MISSED_LINK)) {
            const [whole, path, anchor] = match;
            const absolute = resolve(dirname(source), path);
            if (!existsSync(absolute)) continue;
            const start = match.index + 2; // after "]("
            replaced.push({ kind: part.kind, text: part.text.slice(last, start) });
            const { target } = project.files.registerAbsolute(absolute);
            const resolved = project.files.resolve(target, project);
            replaced.push(
              typeof resolved === 'object'
                ? { kind: 'relative-link', text: whole.slice(2, -1), target, targetAnchor: anchor }
                : { kind: 'text', text: repositoryUrl(absolute, anchor) },
            );
            last = match.index + whole.length - 1;
          }
          if (replaced.length === 0) continue;
          replaced.push({ kind: part.kind, text: part.text.slice(last) });
          logger.verbose(`docs-site: fixed ${replaced.length >> 1} missed link(s) in ${reflection.name}`);
          parts.splice(i, 1, ...replaced);
          i += replaced.length - 1;
        }
      }
    }
  }
}

/** The literal values of a union, or undefined when it has other members. */
function literalSet(type) {
  if (!(type instanceof UnionType)) return undefined;
  const values = type.types.map((member) => (member.type === 'literal' ? member.value : undefined));
  return values.every((value) => typeof value === 'string') ? new Set(values) : undefined;
}

/**
 * The string literals an alias stands for: its union of literals, or, for `keyof typeof TABLE`, the keys of
 * the documented variable `TABLE` (as `ErrorCode` is declared).
 */
function aliasValues(alias) {
  const { type } = alias;
  if (type?.type === 'typeOperator' && type.operator === 'keyof' && type.target.type === 'query') {
    const table = type.target.queryType.reflection;
    const keys = table?.type?.declaration?.children?.map((child) => child.name);
    return keys && keys.length > 0 ? new Set(keys) : undefined;
  }
  return literalSet(type);
}

/**
 * TypeScript forgets the name of an alias such as `ErrorCode = keyof typeof ERROR_STATUS` once it resolves the
 * union, so every `code: ErrorCode` was printed as all of its 35 literals. Where a union holds every literal of
 * a documented string-literal alias, the alias is shown (and linked) in their place.
 */
function restoreLiteralAliases(project, logger) {
  const aliases = project
    .getReflectionsByKind(ReflectionKind.TypeAlias)
    .map((alias) => ({ alias, values: aliasValues(alias) }))
    .filter(({ values }) => values !== undefined && values.size >= 3)
    .sort((a, b) => b.values.size - a.values.size);
  const visit = (type, owner) => {
    if (!(type instanceof Type)) return type;
    for (const key of Object.keys(type)) {
      const value = type[key];
      if (value instanceof Type) type[key] = visit(value, owner);
      else if (Array.isArray(value))
        type[key] = value.map((item) => (item instanceof Type ? visit(item, owner) : item));
    }
    if (!(type instanceof UnionType)) return type;
    for (const { alias, values } of aliases) {
      if (alias === owner) continue;
      const present = type.types.filter(
        (member) => member.type === 'literal' && values.has(member.value),
      );
      if (new Set(present.map((member) => member.value)).size !== values.size) continue;
      const reference = ReferenceType.createResolvedReference(alias.name, alias, project);
      logger.verbose(`docs-site: ${owner.getFullName()} shows ${alias.name} in place of its literals`);
      const rest = type.types.filter((member) => !present.includes(member));
      if (rest.length === 0) return reference;
      type.types = [reference, ...rest];
    }
    return type;
  };
  for (const reflection of Object.values(project.reflections)) {
    if ('type' in reflection && reflection.type) reflection.type = visit(reflection.type, reflection);
    if ('default' in reflection && reflection.default instanceof Type)
      reflection.default = visit(reflection.default, reflection);
  }
}

/** The module symbols of a converted package: one per entry point. */
function entryModules(context) {
  const modules = context.project.getReflectionsByKind(ReflectionKind.Module);
  const owners = modules.length > 0 ? modules : [context.project];
  return owners
    .map((owner) => ({ owner, symbol: context.getSymbolFromReflection(owner) }))
    .filter(({ symbol }) => symbol !== undefined);
}

/**
 * `excludeExternals` keeps zod's and ky's whole APIs out of the reference, but it also drops what core re-exports
 * on purpose: `z` (one zod instance for the SDK and the connector's schemas), and ky's `HTTPError` and
 * `TimeoutError` (what the end-system client throws). Each re-export gets an entry of its own, with its comment
 * and a link to its package's docs.
 */
function addExternalReExports(context) {
  for (const { owner, symbol } of entryModules(context)) {
    for (const exported of context.checker.getExportsOfModule(symbol)) {
      const external = Object.hasOwn(EXTERNAL_RE_EXPORTS, exported.name)
        ? EXTERNAL_RE_EXPORTS[exported.name]
        : undefined;
      if (external === undefined || owner.getChildByName([exported.name])) continue;
      const reflection = context
        .withScope(owner)
        .createDeclarationReflection(ReflectionKind.Variable, undefined, exported);
      const reference = ReferenceType.createBrokenReference(
        exported.name,
        context.project,
        external.from,
      );
      reference.externalUrl = external.url;
      reflection.type = new QueryType(reference);
      reflection.comment ??= context.getComment(exported, ReflectionKind.Variable);
      context.finalizeDeclarationReflection(reflection);
    }
  }
}

/** The name in the package.json nearest above a file. */
function packageNameOf(file) {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')).name;
  }
  return undefined;
}

/** Whether a symbol's declarations carry an `@internal` tag. */
function isInternal(symbol, checker) {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  return (target.declarations ?? []).some((declaration) =>
    ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === 'internal'),
  );
}

/** Warns about a public entry point exporting something tagged `@internal` (ARCHITECTURE.md, D25). */
function checkInternalExports(context, logger) {
  for (const { owner, symbol } of entryModules(context)) {
    const packageName = packageNameOf(symbol.declarations?.[0]?.getSourceFile().fileName ?? root);
    const entry = owner === context.project ? packageName : `${packageName} (${owner.name})`;
    for (const exported of context.checker.getExportsOfModule(symbol)) {
      if (!isInternal(exported, context.checker)) continue;
      if (INTERNAL_EXPORTS_SHARED_BY_PACKAGES.has(`${packageName}:${exported.name}`)) continue;
      logger.warn(
        `${entry} exports ${exported.name}, which is tagged @internal: remove it from the entry point ` +
          'or document it as public',
      );
    }
  }
}

/** The package whose exports must mostly carry an `@example`, and the share they must reach (STYLE.md). */
const EXAMPLES_PACKAGE = '@connector-sdk/core';
const MIN_EXAMPLE_SHARE = 0.8;

/** What a reader gets a reference entry for: a reference to an export documented elsewhere is not one. */
const DOCUMENTED_EXPORT =
  ReflectionKind.Function |
  ReflectionKind.Class |
  ReflectionKind.Interface |
  ReflectionKind.TypeAlias |
  ReflectionKind.Variable |
  ReflectionKind.Enum |
  ReflectionKind.Namespace;

/**
 * Whether an export's comment holds an `@example`: a function's comment sits on its signatures, a class's,
 * an interface's, an alias's or a variable's on the declaration itself.
 */
function hasExample(reflection) {
  const comments = [
    reflection.comment,
    ...(reflection.signatures ?? []).map((signature) => signature.comment),
    ...(reflection.type?.declaration?.signatures ?? []).map((signature) => signature.comment),
  ];
  return comments.some((comment) => comment?.getTag('@example') !== undefined);
}

/**
 * Counts core's exports, over every entry point of its `exports` map, and how many show an `@example`: a
 * reader learns an export fastest from one call. Below {@link MIN_EXAMPLE_SHARE}, a warning names the share
 * and the exports without one, so the share cannot drop unnoticed.
 */
function checkExamples(project, logger) {
  if (project.packageName !== EXAMPLES_PACKAGE) return;
  const exports = project
    .getReflectionsByKind(DOCUMENTED_EXPORT)
    .filter((reflection) => reflection.parent === project || reflection.parent?.kindOf(ReflectionKind.Module));
  const missing = exports.filter((reflection) => !hasExample(reflection));
  const shown = exports.length - missing.length;
  const share = exports.length === 0 ? 1 : shown / exports.length;
  const figure = `core examples: ${shown} of ${exports.length} exports (${Math.floor(share * 100)}%)`;
  logger.info(figure);
  if (share >= MIN_EXAMPLE_SHARE) return;
  const names = missing.map((reflection) => reflection.getFriendlyFullName()).sort();
  logger.warn(
    `${figure}, below ${MIN_EXAMPLE_SHARE * 100}%: add an @example to ${names.join(', ')}`,
  );
}

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(
    Converter.EVENT_RESOLVE_BEGIN,
    (context) => {
      // Each package is converted from one program; resolving happens after TypeDoc let go of it.
      context.setActiveProgram(context.programs[0]);
      try {
        addExternalReExports(context);
        checkInternalExports(context, app.logger);
      } finally {
        context.setActiveProgram(undefined);
      }
    },
    // Before `@mergeModuleWith` (at 10000) merges an entry point's module into its package.
    20_000,
  );
  // After every other plugin: comments have moved to signatures and `@internal` exports are gone.
  app.converter.on(Converter.EVENT_RESOLVE_END, (context) => checkExamples(context.project, app.logger), -100);
  app.renderer.on(
    RendererEvent.BEGIN,
    (event) => {
      linkFilesToRepository(event.project, app.logger);
      restoreLiteralAliases(event.project, app.logger);
    },
    100,
  );
}
