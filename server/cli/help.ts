/**
 * `--help` (or `-h`) on a command line: its usage on stdout and exit code 0, as asked-for help is no
 * error; a wrong call prints the same usage on stderr and exits 2.
 */
export const wantsHelp = (argv: readonly string[]): boolean =>
  argv.includes('--help') || argv.includes('-h');
