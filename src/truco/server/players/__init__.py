"""The players: who is asking (the identity cookie), claimed names and passwords, the players'
rows, the ratings (pure), rated matches in the database, and the ranking's pages."""
