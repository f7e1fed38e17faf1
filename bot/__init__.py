"""The imperative shell of Legatus: Discord, the offline console, the database, the scheduler and HTTP."""
