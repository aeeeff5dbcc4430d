"""The table layer, front-end neutral: a game's seats (people and computer players), moves
checked by the engine, and what each seat may know, as the terminal game and the server
both need it."""
