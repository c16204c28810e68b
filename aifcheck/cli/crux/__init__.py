"""The commands of CRUX: a module per command group that has the task (aifcheck.tasks)."""
