import { hashPassword } from './admin/secret.js';

/**
 * `npm run admin:hash -w apps/server`: prints the ADMIN_PASSWORD_HASH of a password typed without echo
 * (or piped in: `printf %s "$PASSWORD" | npm run --silent admin:hash -w apps/server`). The password
 * itself is never printed, logged or passed as an argument (where `ps` and shell history would show it).
 */

const MIN_PASSWORD_LENGTH = 12;

/** Reads one line from the terminal with echo off; Ctrl-C or Ctrl-D gives up. */
function readHidden(prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const input = process.stdin;
    process.stderr.write(prompt);
    input.setRawMode(true);
    input.setEncoding('utf8');
    let typed = '';
    const finish = (error?: Error) => {
      input.setRawMode(false);
      input.pause();
      input.off('data', onData);
      process.stderr.write('\n');
      error ? reject(error) : resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return finish();
        if (char === '\u0003' || char === '\u0004') return finish(new Error('cancelled'));
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    input.on('data', onData);
    input.resume();
  });
}

async function readPiped(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  // A pipe usually ends with the newline of `echo`: it is not part of the password.
  return text.replace(/\r?\n$/, '');
}

async function main(): Promise<void> {
  let password: string;
  if (process.stdin.isTTY) {
    password = await readHidden('Operator password: ');
    if ((await readHidden('Again, to be sure: ')) !== password) throw new Error('the two passwords differ');
  } else {
    password = await readPiped();
  }
  if (password.length < MIN_PASSWORD_LENGTH) throw new Error(`use at least ${MIN_PASSWORD_LENGTH} characters`);
  process.stdout.write(`${await hashPassword(password)}\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`No hash made: ${error.message}\n`);
  process.exit(1);
});
