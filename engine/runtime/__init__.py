"""Running a compiled program: the working memory, the agenda, the game."""
