/**
 * Small stop-word lists (English and Russian) used by the heuristic judges and the sample
 * pipeline's extractive answer: function words that carry no content.
 */
const EN = `a about above after again against all am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further had has
have having he her here hers herself him himself his how i if in into is it its itself just me more
most my myself no nor not now of off on once only or other our ours ourselves out over own same she
should so some such than that the their theirs them themselves then there these they this those
through to too under until up very was we were what when where which while who whom why will with
would you your yours yourself yourselves also get got may might must shall yes ok please hi hello
does can't cannot don't doesn't i'm it's there's what's how's let us`;
const RU = `и в во не что он на я с со как а то все она так его но да ты к у же вы за бы по только
ее мне было вот от меня еще нет о из ему теперь когда даже ну вдруг ли если уже или ни быть был него
до вас нибудь опять уж вам ведь там потом себя ничего ей может они тут где есть надо ней для мы тебя
их чем была сам чтоб без будто чего раз тоже себе под будет ж тогда кто этот того потому этого какой
совсем ним здесь этом один почти мой тем чтобы нее сейчас были куда зачем всех никогда можно при
наконец два об другой хоть после над больше тот через эти нас про всего них какая много разве три
эту моя впрочем хорошо свою этой перед иногда лучше чуть том нельзя такой им более всегда конечно
всю между это как ли ли мои наш ваш`;

/** Stop words of both languages, lower-case NFC. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `${EN} ${RU}`
    .split(/\s+/u)
    .filter((w) => w.length > 0)
    .map((w) => w.normalize("NFC")),
);
