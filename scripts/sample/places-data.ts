/**
 * Places and names for the sample's providers: states with their provider counts, cities with a real
 * ZIP code and telephone area code of that city, street names, person names. Invented people; real
 * geography.
 */

/** A city where sample providers practise. */
export interface SampleCity {
  city: string;
  zip: string;
  areaCode: string;
}

/** States of the sample with the number of NPIs in each (sums to 118) and their cities. */
export const STATES: ReadonlyArray<{ state: string; npis: number; cities: readonly SampleCity[] }> = [
  { state: 'CA', npis: 20, cities: [{ city: 'Los Angeles', zip: '90017', areaCode: '213' }, { city: 'San Diego', zip: '92103', areaCode: '619' }, { city: 'Sacramento', zip: '95816', areaCode: '916' }, { city: 'Oakland', zip: '94609', areaCode: '510' }] },
  { state: 'NY', npis: 15, cities: [{ city: 'New York', zip: '10016', areaCode: '212' }, { city: 'Brooklyn', zip: '11201', areaCode: '718' }, { city: 'Albany', zip: '12208', areaCode: '518' }, { city: 'Buffalo', zip: '14203', areaCode: '716' }] },
  { state: 'TX', npis: 15, cities: [{ city: 'Houston', zip: '77030', areaCode: '713' }, { city: 'Dallas', zip: '75246', areaCode: '214' }, { city: 'Austin', zip: '78705', areaCode: '512' }, { city: 'San Antonio', zip: '78229', areaCode: '210' }] },
  { state: 'FL', npis: 13, cities: [{ city: 'Miami', zip: '33136', areaCode: '305' }, { city: 'Orlando', zip: '32806', areaCode: '407' }, { city: 'Tampa', zip: '33606', areaCode: '813' }, { city: 'Jacksonville', zip: '32209', areaCode: '904' }] },
  { state: 'IL', npis: 12, cities: [{ city: 'Chicago', zip: '60611', areaCode: '312' }, { city: 'Evanston', zip: '60201', areaCode: '847' }, { city: 'Springfield', zip: '62702', areaCode: '217' }] },
  { state: 'GA', npis: 9, cities: [{ city: 'Atlanta', zip: '30308', areaCode: '404' }, { city: 'Savannah', zip: '31405', areaCode: '912' }, { city: 'Macon', zip: '31201', areaCode: '478' }] },
  { state: 'OH', npis: 9, cities: [{ city: 'Columbus', zip: '43210', areaCode: '614' }, { city: 'Cleveland', zip: '44106', areaCode: '216' }, { city: 'Cincinnati', zip: '45219', areaCode: '513' }] },
  { state: 'WA', npis: 9, cities: [{ city: 'Seattle', zip: '98104', areaCode: '206' }, { city: 'Spokane', zip: '99204', areaCode: '509' }, { city: 'Tacoma', zip: '98405', areaCode: '253' }] },
  { state: 'AZ', npis: 8, cities: [{ city: 'Phoenix', zip: '85006', areaCode: '602' }, { city: 'Tucson', zip: '85719', areaCode: '520' }, { city: 'Mesa', zip: '85202', areaCode: '480' }] },
  { state: 'PA', npis: 8, cities: [{ city: 'Philadelphia', zip: '19104', areaCode: '215' }, { city: 'Pittsburgh', zip: '15213', areaCode: '412' }, { city: 'Harrisburg', zip: '17110', areaCode: '717' }] },
];

/** Place words used to name organisations, per state (regional landmarks, not real providers). */
export const PLACE_WORDS: Readonly<Record<string, readonly string[]>> = {
  CA: ['Pacific Coast', 'Golden State', 'Sierra Vista', 'Mission Bay', 'Sunset Valley', 'Redwood'],
  NY: ['Hudson Valley', 'Empire', 'Lakeshore', 'Mohawk', 'Battery Park', 'Genesee'],
  TX: ['Lone Star', 'Gulf Coast', 'Hill Country', 'Brazos', 'Trinity', 'Pecan Valley'],
  FL: ['Sunshine', 'Bayfront', 'Coral', 'Palmetto', 'Everglades', 'Suncoast'],
  IL: ['Prairie', 'Lakeview', 'Heartland', 'North Shore', 'Lincoln Park'],
  GA: ['Peachtree', 'Chattahoochee', 'Magnolia', 'Piedmont Ridge'],
  OH: ['Buckeye', 'Western Reserve', 'Maumee', 'Scioto Valley'],
  WA: ['Puget Sound', 'Cascade', 'Evergreen', 'Olympic'],
  AZ: ['Desert Sky', 'Saguaro', 'Camelback', 'Sonoran'],
  PA: ['Keystone', 'Allegheny', 'Schuylkill', 'Liberty'],
};

export const STREETS: readonly string[] = [
  'MAIN ST', 'OAK AVE', 'MEDICAL CENTER DR', 'PARK BLVD', 'WASHINGTON AVE', 'LAKE ST', 'HOSPITAL DR',
  'CEDAR LN', 'BROADWAY', 'UNIVERSITY AVE', 'HIGHLAND AVE', 'RIVERSIDE DR', 'ELM ST', 'MARKET ST',
];

export const FIRST_NAMES_F: readonly string[] = [
  'MARIA', 'JENNIFER', 'LINDA', 'PATRICIA', 'ELIZABETH', 'SUSAN', 'JESSICA', 'SARAH', 'KAREN', 'NANCY',
  'LISA', 'MICHELLE', 'EMILY', 'PRIYA', 'MEI', 'AISHA', 'CAROLINA', 'RACHEL', 'ANNA', 'GRACE',
];

export const FIRST_NAMES_M: readonly string[] = [
  'JAMES', 'ROBERT', 'JOHN', 'MICHAEL', 'DAVID', 'WILLIAM', 'RICHARD', 'JOSEPH', 'THOMAS', 'DANIEL',
  'MATTHEW', 'ANTHONY', 'RAJESH', 'WEI', 'CARLOS', 'AHMED', 'KEVIN', 'BRIAN', 'SAMUEL', 'ANDREW',
];

export const LAST_NAMES: readonly string[] = [
  'SMITH', 'JOHNSON', 'WILLIAMS', 'BROWN', 'JONES', 'GARCIA', 'MILLER', 'DAVIS', 'RODRIGUEZ', 'MARTINEZ',
  'HERNANDEZ', 'LOPEZ', 'GONZALEZ', 'WILSON', 'ANDERSON', 'THOMAS', 'TAYLOR', 'MOORE', 'JACKSON', 'MARTIN',
  'LEE', 'PEREZ', 'THOMPSON', 'WHITE', 'HARRIS', 'SANCHEZ', 'CLARK', 'RAMIREZ', 'LEWIS', 'ROBINSON',
  'WALKER', 'YOUNG', 'ALLEN', 'KING', 'WRIGHT', 'SCOTT', 'NGUYEN', 'HILL', 'FLORES', 'GREEN',
  'ADAMS', 'NELSON', 'BAKER', 'HALL', 'RIVERA', 'CAMPBELL', 'MITCHELL', 'CARTER', 'ROBERTS', 'PATEL',
  'SHAH', 'CHEN', 'KIM', 'COHEN', 'OKAFOR', 'SULLIVAN', 'MURPHY', 'KOWALSKI', 'NOVAK', 'SCHMIDT',
];
