// The app: starts the router and the input, in the language the visitor chose last. The screens
// are home.ts (the lobby), table.ts (a table) and anotadorPage.ts (the anotador); router.ts
// chooses one from the address.

import "./styles.css";
import { loadAccount, onAccountChange } from "./account";
import { installAnalysis } from "./analysisReplay";
import { installDownloads } from "./downloads";
import { getLang, setLang } from "./i18n";
import { listen } from "./input";
import { errorText, showToast } from "./page";
import { route } from "./router";
import { store } from "./storage";
import { tick } from "./table";

window.addEventListener("popstate", route);
listen();
// The analysis over the replay: before the first route, which may be a replay with ?analizar.
installAnalysis();
// Hand downloads carry the seat token (the server gives them only to the players mid-match).
installDownloads(document, (table) => store.seat(table)?.token ?? null, (code) => showToast(errorText(code)));
setInterval(tick, 1000);
setLang(store.lang());
document.documentElement.lang = getLang();
route();
// Who the player is, and where she sits; a table open now reconnects as the player she became.
onAccountChange(route);
void loadAccount();
