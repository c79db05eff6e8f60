"""The source texts of the four rule sets, the clause index (`CLAUSES.md`) and
`INTERPRETATIONS.md`. A package only so that installs carry the texts: the
audit quotes clauses from `CLAUSES.md`."""
