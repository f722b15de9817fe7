// Markup for each part of the screen, built from the state with the html tag (the table
// controller puts it in place). Names, chat and every translated string are text here, never
// markup. One module per part; this one gathers them for the controller and the tests.

export * from "./board";
export * from "./modals";
export * from "./names";
export * from "./panels";
export * from "./score";
