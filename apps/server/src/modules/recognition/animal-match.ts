import { lookup } from './memory-words.js';

/** Animal memories against what the detector saw: by species. */

const ANIMAL_WORDS: Record<string, string> = {};
const addAnimals = (label: string, list: string) => {
  for (const w of list.split(',')) ANIMAL_WORDS[w.trim()] = label;
};
addAnimals(
  'dog',
  'dog,dogs,puppy,pup,doggy,hound,hund,hunde,hündin,welpe,rüde,labrador,retriever,golden retriever,shepherd,' +
    'schäferhund,poodle,pudel,terrier,beagle,dackel,dachshund,bulldog,husky,collie,spaniel,boxer,chihuahua,' +
    'pug,mops,rottweiler,doberman,dobermann,corgi,dalmatian,dalmatiner,greyhound,windhund,schnauzer,' +
    'labradoodle,pitbull,setter,pointer,malteser,maltese,pomeranian,spitz,havaneser,shih tzu',
);
addAnimals(
  'cat',
  'cat,cats,kitten,kitty,katze,katzen,kater,kätzchen,mieze,siamese,siam,persian,perser,maine coon,tabby,' +
    'bengal,ragdoll,sphynx,britisch kurzhaar,british shorthair',
);
addAnimals(
  'bird',
  'bird,birds,vogel,vögel,parrot,papagei,budgie,budgerigar,wellensittich,parakeet,canary,kanarienvogel,' +
    'chicken,huhn,hühner,hen,henne,rooster,hahn,duck,ente,goose,gans,pigeon,taube,crow,krähe,owl,eule,' +
    'cockatoo,kakadu,robin,rotkehlchen,magpie,elster',
);
addAnimals(
  'horse',
  'horse,horses,pferd,pferde,pony,ponys,mare,stute,stallion,hengst,foal,fohlen,donkey,esel,mule,maultier',
);
addAnimals('sheep', 'sheep,schaf,schafe,lamb,lamm,ram,widder');
addAnimals('cow', 'cow,cows,kuh,kühe,cattle,rind,rinder,bull,stier,calf,kalb,ox,ochse');
addAnimals('bear', 'bear,bär');
addAnimals('elephant', 'elephant,elefant');
addAnimals('zebra', 'zebra');
addAnimals('giraffe', 'giraffe');

const ANIMAL_SUFFIXES: [string, string][] = [
  ['hund', 'dog'],
  ['hündin', 'dog'],
  ['katze', 'cat'],
  ['kater', 'cat'],
  ['vogel', 'bird'],
  ['pferd', 'horse'],
  ['huhn', 'bird'],
];

/** The detector's label for a species as people write it ("Dog", "Hund", "golden retriever", "Katze"). */
export function animalLabelOf(species: string | null | undefined): string | undefined {
  return lookup(species, ANIMAL_WORDS, ANIMAL_SUFFIXES);
}

export interface AnimalMemoryLike {
  category?: string;
  species?: string | null;
  name?: string | null;
}

/**
 * The animal memory a detected animal is, by species, or undefined: only when exactly one memory is of that
 * species (two dogs look alike to the detector, and an alert must not guess which).
 */
export function matchAnimal<M extends AnimalMemoryLike>(
  detected: string | { label: string },
  memories: readonly M[],
): M | undefined {
  const label = typeof detected === 'string' ? detected : detected.label;
  const same = memories.filter(
    (m) => (m.category === undefined || m.category === 'animals') && animalLabelOf(m.species) === label,
  );
  return same.length === 1 ? same[0] : undefined;
}
