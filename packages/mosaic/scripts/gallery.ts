/**
 * Renders every test portrait, standard and black label, each as the 4:5 artwork and its 9:16 story
 * version, into docs/gallery/ as small JPEGs beside the framed photo, with an index page; and, when
 * docs/gallery/before/ holds the engine's pictures from before issue 14, each photo before and after
 * side by side with a close-up of the eyes and mouth. Run: `npm run gallery -w packages/mosaic`.
 * `-- --before` instead stores this engine's pictures in docs/gallery/before/ (done once, on the
 * engine before issue 14).
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { loadModels } from '../src/index.js';
import { renderDetailed } from '../src/render.js';
import { closeCrop, PORTRAIT_NAMES, portrait } from '../src/testing/photos.js';
import { type Crop, closeUp, cropOf, eyesAndMouth, readCrops, sideBySide, writeCrops } from './gallery-compare.js';

const out = join(import.meta.dirname, '..', '..', '..', 'docs', 'gallery');
const before = join(out, 'before');
const storeBefore = process.argv.includes('--before');
const VARIANTS = ['standard', 'blacklabel'] as const;
const thumb = (input: Sharp) => input.resize(540, 675).jpeg({ quality: 84, mozjpeg: true }).toBuffer();
const storyThumb = (jpeg: Buffer | undefined) => {
  if (!jpeg) throw new Error('the render made no story version');
  return sharp(jpeg).resize(540, 960).jpeg({ quality: 84, mozjpeg: true }).toBuffer();
};

await mkdir(out, { recursive: true });
await loadModels();
const rows: string[] = [];
const compareRows: string[] = [];
const closeUpRows: string[] = [];
const photos = [
  ...PORTRAIT_NAMES.map((name) => ({ name, load: () => portrait(name) })),
  { name: 'close-crop', load: closeCrop },
];
const started = performance.now();
const storedCrops = storeBefore ? undefined : await readCrops(before);
const crops: Record<string, Crop> = {};
if (storeBefore) await mkdir(before, { recursive: true });
// Close-ups are one file or two per photo depending on the engine: none may be left from an earlier run.
if (storedCrops) {
  for (const file of await readdir(out)) if (file.endsWith('-eyes-mouth.jpg')) await rm(join(out, file));
}
for (const { name, load } of photos) {
  const photo = await load();
  const standard = await renderDetailed(photo, { story: true });
  const dark = await renderDetailed(photo, { blacklabel: true, story: true });
  const framed = sharp(standard.framed.data, {
    raw: { width: standard.framed.width, height: standard.framed.height, channels: 3 },
  });
  // The same crop before and after, so the close-ups show the same eyes and mouth.
  const crop = storedCrops?.[name] ?? eyesAndMouth(standard);
  crops[name] = crop;
  const rendered = { standard: standard.jpeg, blacklabel: dark.jpeg };
  if (storeBefore) {
    for (const variant of VARIANTS) {
      await writeFile(join(before, `${name}-${variant}.jpg`), await thumb(sharp(rendered[variant])));
      await writeFile(join(before, `${name}-${variant}-eyes-mouth.jpg`), await cropOf(rendered[variant], crop));
    }
    console.log(`${name}: stored as before`);
    continue;
  }
  if (storedCrops) {
    const cells: string[] = [];
    const todayCrops: Buffer[] = [];
    const newCrops: Buffer[] = [];
    for (const variant of VARIANTS) {
      const today = await readFile(join(before, `${name}-${variant}.jpg`));
      await writeFile(
        join(out, `${name}-${variant}-compare.jpg`),
        await sideBySide(framed.clone(), today, rendered[variant]),
      );
      cells.push(`![${name} ${variant} before and after](${name}-${variant}-compare.jpg)`);
      todayCrops.push(await readFile(join(before, `${name}-${variant}-eyes-mouth.jpg`)));
      newCrops.push(await cropOf(rendered[variant], crop));
    }
    compareRows.push(`| ${name} | ${cells.join(' | ')} |`);
    // The face is painted alike in both variants: where the crops are the same, one close-up shows both.
    const [todayStandard, todayDark] = todayCrops as [Buffer, Buffer];
    const [newStandard, newDark] = newCrops as [Buffer, Buffer];
    const alike = todayStandard.equals(todayDark) && newStandard.equals(newDark);
    const closeCells: string[] = [];
    for (const [i, variant] of VARIANTS.entries()) {
      if (alike && variant === 'blacklabel') {
        closeCells.push('the same as standard (the face is painted alike)');
        continue;
      }
      const file = alike ? `${name}-eyes-mouth.jpg` : `${name}-${variant}-eyes-mouth.jpg`;
      await writeFile(join(out, file), await closeUp(todayCrops[i] as Buffer, newCrops[i] as Buffer, crop));
      closeCells.push(`![${name} ${variant} eyes and mouth, before and after](${file})`);
    }
    closeUpRows.push(`| ${name} | ${closeCells.join(' | ')} |`);
  }
  await writeFile(join(out, `${name}-photo.jpg`), await thumb(framed));
  await writeFile(join(out, `${name}-standard.jpg`), await thumb(sharp(standard.jpeg)));
  await writeFile(join(out, `${name}-blacklabel.jpg`), await thumb(sharp(dark.jpeg)));
  await writeFile(join(out, `${name}-story.jpg`), await storyThumb(standard.story?.jpeg));
  await writeFile(join(out, `${name}-blacklabel-story.jpg`), await storyThumb(dark.story?.jpeg));
  rows.push(
    `| ![${name} framed](${name}-photo.jpg) | ![${name} standard](${name}-standard.jpg) | ![${name} story](${name}-story.jpg) | ![${name} black label](${name}-blacklabel.jpg) | ![${name} black label story](${name}-blacklabel-story.jpg) | ${standard.tiles} |`,
  );
  console.log(`${name}: ${standard.tiles} tiles`);
}
if (storeBefore) {
  await writeCrops(before, crops);
  console.log(`Stored the before pictures in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  process.exit(0);
}
const comparison = `
## Before and after (issue 14)

Each photo as the engine framed it, the artwork of the engine before issue 14 ("today", kept in
[\`before/\`](before/) with the commit it came from named in \`packages/mosaic/bench/baseline-today.json\`)
and the artwork of the engine that made this page ("new"), at 40 % size; the measures of both are in
\`BENCHMARKS.md\` ("Artwork measures").

| photo | standard | black label |
| --- | --- | --- |
${compareRows.join('\n')}

### Eyes and mouth, enlarged 2× pixel for pixel

The same crop of both artworks (the eyes, brows and mouth from the engine's face landmarks, with a
margin of a tenth of the face width), from the JPEG as delivered.

| photo | standard | black label |
| --- | --- | --- |
${closeUpRows.join('\n')}
`;
const readme = `# Gallery

Every portrait the engine's quality tests use (one face cropped from each of \`@vladmandic/face-api\`'s
demo photos) and a close 480×640 phone-style crop, framed by the engine (grey where the framing
reaches beyond the photo; the artwork paints that area as campaign pattern), then as the standard
and the black label artwork, each beside its story version (the same mosaic as one 9:16
composition: the pattern laid on above and below, the figure ending on a curve like a bust's base,
the wordmark on a plaque clear of the bottom 250 px). Shown
at half size; the artworks are 1080×1350, the story versions 1080×1920. Regenerate with
\`npm run gallery -w packages/mosaic\`.

| framed photo | standard | story | black label | black label story | tiles |
| --- | --- | --- | --- | --- | --- |
${rows.join('\n')}
${compareRows.length ? comparison : ''}`;
await writeFile(join(out, 'README.md'), readme);
console.log(`Gallery in ${((performance.now() - started) / 1000).toFixed(1)} s, ${await sizeOf(out)}.`);

/** Total size of the gallery's files, before/ included. */
async function sizeOf(dir: string): Promise<string> {
  let bytes = 0;
  for (const entry of await readdir(dir, { recursive: true })) {
    const path = join(dir, entry);
    if (existsSync(path)) {
      const info = await stat(path);
      if (info.isFile()) bytes += info.size;
    }
  }
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
