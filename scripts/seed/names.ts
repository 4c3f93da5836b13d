// Names, streets, services and subjects the synthetic directory is drawn from.

/** Studio services. */
export const SERVICES = [
  'custom_design', 'cover_ups', 'walk_ins', 'flash', 'touch_ups', 'large_scale', 'consultations', 'scar_coverup',
  'vegan_ink', 'piercing', 'laser_removal', 'private_suites',
] as const;

export const NAME_FIRST = [
  'Iron', 'Black', 'Golden', 'Electric', 'Lucky', 'Sacred', 'Crimson', 'Silver', 'Wild', 'Velvet', 'Northern', 'Salt',
  'Rising', 'Hidden', 'Blue', 'Copper', 'Ghost', 'Lotus', 'Midnight', 'Old', 'True', 'Savage', 'Gentle', 'Atomic',
] as const;
export const NAME_SECOND = [
  'Anchor', 'Rose', 'Needle', 'Dragon', 'Swallow', 'Dagger', 'Lotus', 'Tiger', 'Crane', 'Serpent', 'Heart', 'Compass',
  'Lantern', 'Raven', 'Moth', 'Wolf', 'Panther', 'Skull', 'Koi', 'Eagle', 'Owl', 'Sparrow', 'Fern', 'Wave',
] as const;
export const NAME_SUFFIX = ['Tattoo', 'Tattoo Co.', 'Ink', 'Tattoo Parlour', 'Tattoo Studio', 'Collective', 'Electric Tattoo', 'Ink Society'] as const;
export const STREETS = ['Main St', 'Market St', 'Broadway', 'Oak Ave', 'Elm St', 'Sunset Blvd', 'High St', 'King St', 'Mission St', 'Pine St', 'Union Ave', 'Queen St'] as const;

export const FIRST_NAMES = [
  'Alex', 'Sam', 'Jordan', 'Maya', 'Luca', 'Nina', 'Kai', 'Rosa', 'Theo', 'Ivy', 'Mateo', 'Yuki', 'Zoe', 'Omar', 'Lena',
  'Diego', 'Ruby', 'Hana', 'Felix', 'Ava', 'Marco', 'Sofia', 'Eli', 'Jade', 'Noah', 'Freya', 'Leo', 'Mila', 'Ezra', 'Nora',
] as const;
export const LAST_NAMES = [
  'Reyes', 'Kim', 'Novak', 'Okafor', 'Silva', 'Tanaka', 'Berg', 'Moreau', 'Costa', 'Walsh', 'Haddad', 'Ivanova', 'Lopez',
  'Nakamura', 'Fischer', 'Quinn', 'Rossi', 'Sato', 'Olsen', 'Mendez', 'Park', 'Byrne', 'Adler', 'Varga', 'Ngata',
] as const;

export const SUBJECTS = [
  'rose', 'koi', 'dragon', 'swallow', 'dagger', 'skull', 'tiger', 'peony', 'snake', 'moth', 'wolf', 'crane', 'lotus',
  'compass', 'anchor', 'portrait', 'mandala', 'fern', 'moon', 'sun', 'hand', 'eye', 'wave', 'mountain',
] as const;
export const PLACEMENTS = ['forearm', 'upper arm', 'sleeve', 'back piece', 'chest', 'calf', 'thigh', 'ankle', 'wrist', 'ribs', 'hand', 'neck'] as const;
