/**
 * The Chromium inside the `@sparticuz/chromium` npm package, for machines without a system one
 * (D82). Only its files are used: the package's own launch flags are made for a one-shot cloud
 * function (`--single-process`, `--disable-web-security`, `--no-zygote`, …) and are never passed;
 * the browser is launched with the same hardened arguments as the system one (./chromium.ts).
 *
 * The package unpacks into the shared temporary folder and reuses whatever file already lies at
 * `/tmp/chromium`, which any local user could have put there; so the brotli files are unpacked here
 * instead, once per package version, into a private folder beside node_modules (docs/decisions/
 * D82).
 */
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import { extract } from 'tar-fs';

export interface BundledChromium {
  /** The browser executable. */
  readonly path: string;
  /** What its process needs: its own NSS libraries and a font configuration that adds its fonts. */
  readonly env: Record<string, string>;
}

const require = createRequire(import.meta.url);

/** The package's folder (its exports do not include package.json, so found from its entry). */
function packageDir(): string {
  let dir = path.dirname(require.resolve('@sparticuz/chromium'));
  while (!existsSync(path.join(dir, 'bin', 'chromium.br'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('@sparticuz/chromium has no bin/chromium.br');
    dir = parent;
  }
  return dir;
}

/** node_modules/.cache/bundled-chromium-<version>: private to whoever installed the packages. */
async function targetDir(): Promise<string> {
  const dir = packageDir();
  const { version } = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as {
    version: string;
  };
  // …/node_modules/@sparticuz/chromium → …/node_modules/.cache
  return path.join(dir, '..', '..', '.cache', `bundled-chromium-${version}`);
}

const fontConfig = (fontsDir: string) => `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <dir>${fontsDir}</dir>
</fontconfig>
`;

let unpacking: Promise<string> | undefined;

/** Unpacks the package's browser, libraries and fonts once (atomically), then reuses them. */
async function unpacked(): Promise<string> {
  const dir = await targetDir();
  if (existsSync(path.join(dir, 'chromium'))) return dir;
  const staging = `${dir}.${process.pid}.${Date.now()}`;
  const bin = path.join(packageDir(), 'bin');
  try {
    await mkdir(staging, { recursive: true, mode: 0o700 });
    await pipeline(
      createReadStream(path.join(bin, 'chromium.br')),
      createBrotliDecompress(),
      createWriteStream(path.join(staging, 'chromium'), { mode: 0o700 }),
    );
    await chmod(path.join(staging, 'chromium'), 0o700);
    for (const archive of ['al2023.tar.br', 'fonts.tar.br'])
      await pipeline(
        createReadStream(path.join(bin, archive)),
        createBrotliDecompress(),
        extract(staging),
      );
    await writeFile(path.join(staging, 'fonts.conf'), fontConfig(path.join(dir, 'fonts')));
    // Another process may have finished first; either copy is the same.
    await rename(staging, dir).catch(async (error: NodeJS.ErrnoException) => {
      if (!existsSync(path.join(dir, 'chromium'))) throw error;
    });
    return dir;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** The bundled browser, unpacked on first use. */
export async function bundledChromium(): Promise<BundledChromium> {
  unpacking ??= unpacked().catch((error: unknown) => {
    unpacking = undefined;
    throw error;
  });
  const dir = await unpacking;
  return {
    path: path.join(dir, 'chromium'),
    env: {
      LD_LIBRARY_PATH: path.join(dir, 'lib'),
      FONTCONFIG_FILE: path.join(dir, 'fonts.conf'),
    },
  };
}
