/**
 * Renders every test portrait, standard and black label, each as the 4:5 artwork and its 9:16 story
 * version, into docs/gallery/ as small JPEGs beside the framed photo, with an index page. Run: `npm run gallery -w packages/mosaic`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { loadModels } from '../src/index.js';
import { renderDetailed } from '../src/render.js';
import { closeCrop, PORTRAIT_NAMES, portrait } from '../src/testing/photos.js';

const out = join(import.meta.dirname, '..', '..', '..', 'docs', 'gallery');
const thumb = (input: Sharp) => input.resize(540, 675).jpeg({ quality: 84, mozjpeg: true }).toBuffer();
const storyThumb = (jpeg: Buffer | undefined) => {
  if (!jpeg) throw new Error('the render made no story version');
  return sharp(jpeg).resize(540, 960).jpeg({ quality: 84, mozjpeg: true }).toBuffer();
};

await mkdir(out, { recursive: true });
await loadModels();
const rows: string[] = [];
const photos = [
  ...PORTRAIT_NAMES.map((name) => ({ name, load: () => portrait(name) })),
  { name: 'close-crop', load: closeCrop },
];
for (const { name, load } of photos) {
  const photo = await load();
  const standard = await renderDetailed(photo, { story: true });
  const dark = await renderDetailed(photo, { blacklabel: true, story: true });
  const framed = sharp(standard.framed.data, {
    raw: { width: standard.framed.width, height: standard.framed.height, channels: 3 },
  });
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
const readme = `# Gallery

Every portrait the engine's quality tests use (one face cropped from each of \`@vladmandic/face-api\`'s
demo photos) and a close 480×640 phone-style crop, framed by the engine (grey where the framing
reaches beyond the photo; the artwork paints that area as campaign pattern), then as the standard
and the black label artwork, each beside its story version (the same mosaic in 9:16, with the
pattern laid further above and below and the wordmark on a bar clear of the bottom 250 px). Shown
at half size; the artworks are 1080×1350, the story versions 1080×1920. Regenerate with
\`npm run gallery -w packages/mosaic\`.

| framed photo | standard | story | black label | black label story | tiles |
| --- | --- | --- | --- | --- | --- |
${rows.join('\n')}
`;
await writeFile(join(out, 'README.md'), readme);
