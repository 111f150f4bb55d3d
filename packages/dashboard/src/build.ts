// Builds the dashboard into packages/dashboard/dist: one ES module bundle (Preact, the app and the
// SDK from its TypeScript source), the stylesheet and the page, each also gzipped for browsers
// that accept it. Run by `npm install` (the root `prepare` script) and by the browser tests, so
// that what the service serves is always built from the sources beside it; dist/ is not committed.
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

export const DASHBOARD_DIST = fileURLToPath(new URL('../dist', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface BuildReport {
  files: { name: string; bytes: number; gzipBytes: number }[];
  /** What the first page costs: page, stylesheet and script, gzipped. */
  firstPageGzipBytes: number;
}

export async function buildDashboard(outDir = DASHBOARD_DIST): Promise<BuildReport> {
  // Imported here: an install without dev dependencies has no esbuild (see the end of the file).
  const { build } = await import('esbuild');
  await mkdir(outDir, { recursive: true });
  await build({
    entryPoints: [join(ROOT, 'src/main.tsx')],
    outfile: join(outDir, 'app.js'),
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    // The SDK's package exports its TypeScript source under this condition.
    conditions: ['development'],
    // The SDK imports node:fs lazily, only for uploads from a path (never in a browser).
    external: ['node:*'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    logLevel: 'warning',
  });
  await copyFile(join(ROOT, 'public/index.html'), join(outDir, 'index.html'));
  await copyFile(join(ROOT, 'public/app.css'), join(outDir, 'app.css'));
  await copyFile(join(ROOT, 'public/favicon.svg'), join(outDir, 'favicon.svg'));
  const files: BuildReport['files'] = [];
  for (const name of ['index.html', 'app.css', 'app.js', 'favicon.svg']) {
    const bytes = await readFile(join(outDir, name));
    const gz = gzipSync(bytes, { level: 9 });
    await writeFile(join(outDir, `${name}.gz`), gz);
    files.push({ name, bytes: bytes.byteLength, gzipBytes: gz.byteLength });
  }
  return { files, firstPageGzipBytes: files.filter((f) => f.name !== 'favicon.svg').reduce((s, f) => s + f.gzipBytes, 0) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const report = await buildDashboard();
    console.log(`dashboard built in ${DASHBOARD_DIST}: ${report.files.map((f) => `${f.name} ${f.gzipBytes} B gzipped`).join(', ')}`);
  } catch (err) {
    // `npm install --omit=dev` runs this too, without esbuild: the service then answers `/` with
    // 503 and the way out, and the install itself does not fail.
    if ((err as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw err;
    console.warn('dashboard not built: esbuild is not installed (an install without dev dependencies)');
  }
}
