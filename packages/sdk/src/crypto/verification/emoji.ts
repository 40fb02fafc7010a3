/**
 * The SAS emoji table of the Matrix specification (m.sas.v1, "emoji"
 * method): 64 entries, each an emoji and its English name, indexed by the
 * 6-bit numbers the short authentication string yields. Both sides of a
 * verification show the same 7 entries; the UI shows the emoji and its name.
 */

/** One entry of the table. */
export interface SasEmoji {
  /** 0..63, the position in the specification's table. */
  index: number;
  emoji: string;
  /** The specification's English name ("Dog"). */
  name: string;
}

const TABLE: ReadonlyArray<readonly [string, string]> = [
  ["🐶", "Dog"],
  ["🐱", "Cat"],
  ["🦁", "Lion"],
  ["🐎", "Horse"],
  ["🦄", "Unicorn"],
  ["🐷", "Pig"],
  ["🐘", "Elephant"],
  ["🐰", "Rabbit"],
  ["🐼", "Panda"],
  ["🐓", "Rooster"],
  ["🐧", "Penguin"],
  ["🐢", "Turtle"],
  ["🐟", "Fish"],
  ["🐙", "Octopus"],
  ["🦋", "Butterfly"],
  ["🌷", "Flower"],
  ["🌳", "Tree"],
  ["🌵", "Cactus"],
  ["🍄", "Mushroom"],
  ["🌏", "Globe"],
  ["🌙", "Moon"],
  ["☁️", "Cloud"],
  ["🔥", "Fire"],
  ["🍌", "Banana"],
  ["🍎", "Apple"],
  ["🍓", "Strawberry"],
  ["🌽", "Corn"],
  ["🍕", "Pizza"],
  ["🎂", "Cake"],
  ["❤️", "Heart"],
  ["😀", "Smiley"],
  ["🤖", "Robot"],
  ["🎩", "Hat"],
  ["👓", "Glasses"],
  ["🔧", "Spanner"],
  ["🎅", "Santa"],
  ["👍", "Thumbs Up"],
  ["☂️", "Umbrella"],
  ["⌛", "Hourglass"],
  ["⏰", "Clock"],
  ["🎁", "Gift"],
  ["💡", "Light Bulb"],
  ["📕", "Book"],
  ["✏️", "Pencil"],
  ["📎", "Paperclip"],
  ["✂️", "Scissors"],
  ["🔒", "Lock"],
  ["🔑", "Key"],
  ["🔨", "Hammer"],
  ["☎️", "Telephone"],
  ["🏁", "Flag"],
  ["🚂", "Train"],
  ["🚲", "Bicycle"],
  ["✈️", "Aeroplane"],
  ["🚀", "Rocket"],
  ["🏆", "Trophy"],
  ["⚽", "Ball"],
  ["🎸", "Guitar"],
  ["🎺", "Trumpet"],
  ["🔔", "Bell"],
  ["⚓", "Anchor"],
  ["🎧", "Headphones"],
  ["📁", "Folder"],
  ["📌", "Pin"],
];

/** The whole table, in specification order. */
export const SAS_EMOJI: readonly SasEmoji[] = Object.freeze(
  TABLE.map(([emoji, name], index) => Object.freeze({ index, emoji, name })),
);

/** The entry for a 6-bit index; throws a RangeError outside 0..63. */
export function sasEmoji(index: number): SasEmoji {
  const entry = Number.isInteger(index) ? SAS_EMOJI[index] : undefined;
  if (!entry) throw new RangeError(`No SAS emoji at index ${index}`);
  return entry;
}
