import readline from 'node:readline';

/**
 * The operator CLI's question on a terminal: asked on stdout, answered on stdin. `hidden`: typed without echo (a
 * password); otherwise the answer shows as typed and comes back trimmed. Ctrl-C rejects, and nothing is written.
 */
export function terminalAnswer(question: string, { hidden = false }: { hidden?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    let muted = false;
    if (hidden) {
      (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s: string) => {
        if (!muted) process.stdout.write(s);
      };
    }
    rl.on('SIGINT', () => {
      rl.close();
      process.stdout.write('\n');
      reject(new Error('cancelled; nothing was written'));
    });
    rl.question(question, (answer) => {
      rl.close();
      if (hidden) process.stdout.write('\n');
      resolve(hidden ? answer : answer.trim());
    });
    muted = true;
  });
}

/** A password or code: asked without echo. */
export const terminalPrompt = (question: string): Promise<string> => terminalAnswer(question, { hidden: true });

/** A visible question (a username, a display name). */
export const terminalQuestion = (question: string): Promise<string> => terminalAnswer(question);
