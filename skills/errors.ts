// The skill library's input errors: an unknown id, a forbidden transition, a database file that is
// not ours or is damaged, a bundle whose content does not match its hash, a campaign that promoted
// nothing. Each is the user's to fix, so the CLI prints it as one line with exit code 2.

export class SkillInputError extends Error {
  override readonly name = 'SkillInputError';
}
