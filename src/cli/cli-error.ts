// An error the command line reports as one line on stderr, with the exit code of docs/api.md §Starting it:
// 2 for a bad flag, value or config at start, 1 for a runtime failure such as a port in use.

export class CliError extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode = 2) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}
