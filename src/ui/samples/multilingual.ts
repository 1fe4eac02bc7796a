/**
 * Sample: one short text about the same theme in several languages and scripts, with CJK, right-to-left
 * text, combining accents and emoji (written for Chunkscope).
 */
export const multilingual = `Notes from the harbour · 港からの便り · Notizen vom Hafen

English
The ferry leaves at seven, whatever the weather. Fishermen sell their catch on the quay before the first tourists wake up, and the café on the corner opens its shutters when the bread arrives. In winter the harbour is quiet; in summer it is the loudest place in town. 🌊⛴️

Français
Le bac part à sept heures, quel que soit le temps. Les pêcheurs vendent leur prise sur le quai avant que les premiers touristes ne se réveillent, et le café du coin lève ses volets quand le pain arrive. En hiver, le port est calme ; en été, c'est l'endroit le plus bruyant de la ville. « On se retrouve au phare ? »

Deutsch
Die Fähre legt um sieben ab, bei jedem Wetter. Die Fischer verkaufen ihren Fang am Kai, bevor die ersten Touristen aufwachen, und das Café an der Ecke öffnet seine Fensterläden, sobald das Brot geliefert wird. Im Winter ist der Hafen still; im Sommer ist er der lauteste Ort der Stadt. Straße, Größe, Brücke — übermäßig viele Umlaute gibt es hier nicht.

Español
El transbordador sale a las siete, haga el tiempo que haga. Los pescadores venden su captura en el muelle antes de que se despierten los primeros turistas. ¿Quién llega primero al faro? ¡Nadie lo sabe!

日本語
フェリーは天気に関係なく七時に出航します。漁師たちは最初の観光客が目を覚ます前に、岸壁で獲れた魚を売ります。角の喫茶店は、パンが届くとシャッターを開けます。冬の港は静かですが、夏には町でいちばんにぎやかな場所になります。🐟

中文
无论天气如何，渡轮都在七点出发。渔民们在第一批游客醒来之前，就在码头上卖掉当天的渔获。街角的咖啡馆在面包送到时拉开卷帘门。冬天的港口很安静；夏天，这里是全镇最热闹的地方。

한국어
여객선은 날씨와 상관없이 일곱 시에 출발합니다. 어부들은 첫 관광객이 깨어나기 전에 부두에서 잡은 생선을 팝니다. 겨울의 항구는 조용하지만, 여름에는 마을에서 가장 시끄러운 곳이 됩니다.

Русский
Паром отправляется в семь, в любую погоду. Рыбаки продают улов на причале, пока первые туристы ещё спят, а кафе на углу открывает ставни, когда привозят хлеб. Зимой в гавани тихо; летом это самое шумное место в городе.

العربية
تغادر العبّارة في السابعة مهما كان الطقس. يبيع الصيادون صيدهم على الرصيف قبل أن يستيقظ أول السياح، ويفتح المقهى الواقع عند الزاوية نوافذه عندما يصل الخبز.

עברית
המעבורת יוצאת בשבע, בכל מזג אוויר. הדייגים מוכרים את השלל שלהם על הרציף לפני שהתיירים הראשונים מתעוררים.

हिन्दी
मौसम चाहे जैसा भी हो, नौका सात बजे निकलती है। पहले पर्यटकों के जागने से पहले ही मछुआरे घाट पर अपनी पकड़ बेच देते हैं।

Ελληνικά
Το πορθμείο φεύγει στις επτά, ό,τι καιρό κι αν κάνει. Οι ψαράδες πουλούν την ψαριά τους στην αποβάθρα πριν ξυπνήσουν οι πρώτοι τουρίστες.

Emoji and joined sequences
Family on the quay: 👨‍👩‍👧‍👦 · flags: 🇵🇹 🇯🇵 🇩🇪 · a skin-tone wave: 👋🏽 · a rainbow flag: 🏳️‍🌈 · decomposed accents: cafe\u0301, man\u0303ana.
`;
