/**
 * The states that license or register tree work, their license types and how each type's
 * number is written, and every US state's name: the data the owner's form, the operator's
 * queue and the public badges read. Client-safe: imports nothing.
 */
/** One license (or registration) a state issues for tree work, and how its number is written. */
export interface LicenceType {
  /** Stored in a license's `type` and shown in the badge, e.g. "LTE". */
  key: string;
  /** e.g. "Licensed Tree Expert (LTE)". */
  label: string;
  /** The type in a few characters, e.g. "LTE": the form's option reads "MD · LTE" and fits a phone's select. */
  short: string;
  /** The normalized number must match this. */
  pattern: RegExp;
  /** Turns what the owner typed ("lte #01234") into the number as stored ("1234"). */
  normalize(raw: string): string;
  /** A valid number, shown as the field's hint. */
  example: string;
  /** The field message when the number does not match. */
  message: string;
}

/** A state that licenses or registers tree work. */
export interface LicensingState {
  code: string;
  name: string;
  /** Who issues the license (the JSON-LD's recognizedBy). */
  authority: string;
  /** Who needs it, in one sentence. */
  requires: string;
  /** What the state requires in advertising. */
  advertising: string;
  /** The public register where the operator checks a number. */
  lookupUrl: string;
  types: readonly LicenceType[];
}

/** Upper case, without spaces, "#", "No." and the type's own prefix: "LTE # 01234" -> "01234". */
const bare = (raw: string, ...prefixes: string[]) => {
  let s = raw
    .toUpperCase()
    .replace(/\s+/g, "")
    .replace(/^NO\.?/, "");
  for (const p of prefixes) if (s.startsWith(p)) s = s.slice(p.length);
  return s.replace(/^[#:.-]+/, "");
};
/** Digits without leading zeros ("0123" -> "123"); anything else is left for the pattern to refuse. */
const digits = (s: string) => (/^\d+$/.test(s) ? s.replace(/^0+(?=\d)/, "") : s);

/**
 * The states whose rules the form knows. Formats are what the registers print; where a
 * register's format could not be confirmed the pattern is deliberately loose (noted below).
 */
export const LICENSING_STATES: readonly LicensingState[] = [
  {
    // https://dnr.maryland.gov/forests/Pages/programapps/newtreeexpert.aspx (Md. Code, Nat. Res. 5-417)
    code: "MD",
    name: "Maryland",
    authority: "Maryland DNR Forest Service",
    requires: "Anyone who treats, cares for or removes trees for pay needs a Licensed Tree Expert license.",
    advertising: "No one may advertise tree work without the license; show the LTE number in every advertisement.",
    lookupUrl: "https://dnr.maryland.gov/forests/Pages/programapps/newtreeexpert.aspx",
    types: [
      {
        key: "LTE",
        short: "LTE",
        label: "Licensed Tree Expert (LTE)",
        // The DNR's cards carried a three-digit number; today's numbers run to four digits.
        pattern: /^[1-9]\d{0,4}$/,
        normalize: (raw) => digits(bare(raw, "MD", "LTE")),
        example: "1234",
        message: "Maryland LTE numbers are 1 to 5 digits, e.g. 1234",
      },
    ],
  },
  {
    // https://www.njtreeexperts.org/index.php/business-operators/ (N.J.S.A. 45:15C-11; N.J.A.C. 7:3A)
    code: "NJ",
    name: "New Jersey",
    authority: "New Jersey Board of Tree Experts",
    requires:
      "Every tree care business registers with the Board and employs a Licensed Tree Expert or Licensed Tree Care Operator.",
    advertising:
      'Advertisements carry the business\'s NJTC registration number; a licensee who advertises the title shows "LTE #" or "LTCO #" with the number.',
    lookupUrl: "https://www.njtreeexperts.org/",
    types: [
      {
        key: "NJTC",
        short: "NJTC",
        label: "Tree care business registration (NJTC)",
        // Printed as "NJTC" and digits; the count of digits is not published, so 3 to 7.
        pattern: /^[1-9]\d{2,6}$/,
        normalize: (raw) => digits(bare(raw, "NJ", "TC", "NJTC")),
        example: "849512",
        message: "New Jersey registration numbers are NJTC followed by 3 to 7 digits, e.g. NJTC 849512",
      },
      {
        key: "LTE",
        short: "LTE",
        label: "Licensed Tree Expert (LTE)",
        pattern: /^[1-9]\d{0,4}$/,
        normalize: (raw) => digits(bare(raw, "NJ", "LTE")),
        example: "100",
        message: "New Jersey LTE numbers are 1 to 5 digits, e.g. 100",
      },
      {
        key: "LTCO",
        short: "LTCO",
        label: "Licensed Tree Care Operator (LTCO)",
        pattern: /^[1-9]\d{0,4}$/,
        normalize: (raw) => digits(bare(raw, "NJ", "LTCO")),
        example: "1001",
        message: "New Jersey LTCO numbers are 1 to 5 digits, e.g. 1001",
      },
    ],
  },
  {
    // https://www.ldaf.la.gov/ (Louisiana Horticulture Commission, La. R.S. 3:3801 et seq.)
    code: "LA",
    name: "Louisiana",
    authority: "Louisiana Horticulture Commission",
    requires:
      "Tree work for pay (trimming, removal, surgery) needs an arborist license from the Horticulture Commission.",
    advertising: "Only a licensed arborist may advertise arborist services; show the license number.",
    lookupUrl: "https://www.ldaf.la.gov/plants/horticulture-commission",
    types: [
      {
        key: "ARB",
        short: "Arborist",
        label: "Arborist license",
        // Format not published: the Commission's numbers are plain digits; 1 to 6 accepted.
        pattern: /^[1-9]\d{0,5}$/,
        normalize: (raw) => digits(bare(raw, "LA", "ARB")),
        example: "2345",
        message: "Louisiana arborist license numbers are 1 to 6 digits, e.g. 2345",
      },
    ],
  },
  {
    // https://portal.ct.gov/deep/pesticides/arborist/commercial-arborist-license (Conn. Gen. Stat. 23-61b)
    code: "CT",
    name: "Connecticut",
    authority: "Connecticut DEEP Pesticide Management Program",
    requires:
      "No one may advertise, solicit or contract to do arboriculture without an arborist license (category 3D).",
    advertising: "Advertising tree work itself requires the license; show the arborist license number.",
    lookupUrl: "https://www.elicense.ct.gov/Lookup/LicenseLookup.aspx",
    types: [
      {
        key: "ARB",
        short: "Arborist",
        label: "Arborist license",
        // Supervisory certificates print as "S-" and digits; a bare number gets the "S-".
        pattern: /^S-[1-9]\d{0,5}$/,
        normalize: (raw) => {
          const s = bare(raw, "CT", "ARB");
          const n = /^S-?(\d+)$/.exec(s)?.[1] ?? (/^\d+$/.test(s) ? s : null);
          return n === null ? s : `S-${digits(n)}`;
        },
        example: "S-4478",
        message: "Connecticut arborist license numbers are S- followed by 1 to 6 digits, e.g. S-4478",
      },
    ],
  },
  {
    // https://www.cslb.ca.gov/About_Us/Library/Licensing_Classifications/C-49_-_Tree_Service.aspx
    code: "CA",
    name: "California",
    authority: "California Contractors State License Board (CSLB)",
    requires:
      "Tree jobs of $1,000 or more (labor and materials) need a CSLB license, classification C-49 Tree and Palm (formerly D-49).",
    advertising: "Advertisements for work over the minor-work limit show the CSLB license number.",
    lookupUrl: "https://www.cslb.ca.gov/OnlineServices/CheckLicenseII/CheckLicense.aspx",
    types: [
      {
        key: "C-49",
        short: "C-49",
        label: "C-49 Tree and Palm contractor",
        // CSLB numbers are all digits: six for older licenses, seven for recent ones.
        pattern: /^[1-9]\d{5,6}$/,
        normalize: (raw) => digits(bare(raw, "CA", "CSLB", "C-49", "C49")),
        example: "1012345",
        message: "California CSLB license numbers are 6 or 7 digits, e.g. 1012345",
      },
    ],
  },
];

/** The type key for a license from a state that is not in LICENSING_STATES. */
export const OTHER_LICENCE = "OTHER";
/** The free-form type offered for a state that is not in LICENSING_STATES. */
export const OTHER_LICENCE_TYPE: LicenceType = {
  key: OTHER_LICENCE,
  short: "State or local",
  label: "State or local license",
  pattern: /^[A-Z0-9](?:[A-Z0-9 ./-]{0,38}[A-Z0-9])?$/,
  normalize: (raw) => raw.trim().toUpperCase().replace(/\s+/g, " ").replace(/^#\s*/, ""),
  example: "TX-12345",
  message: "Please enter the license number as printed: letters, digits, spaces, dots, slashes and dashes",
};

/** Every US state (and DC) by code, for the form's state list. */
export const US_STATES: Readonly<Record<string, string>> = {
  AL: "Alabama", AK: "Alaska", AZ: "Arizona", AR: "Arkansas", CA: "California", CO: "Colorado", CT: "Connecticut",
  DE: "Delaware", DC: "District of Columbia", FL: "Florida", GA: "Georgia", HI: "Hawaii", ID: "Idaho",
  IL: "Illinois", IN: "Indiana", IA: "Iowa", KS: "Kansas", KY: "Kentucky", LA: "Louisiana", ME: "Maine",
  MD: "Maryland", MA: "Massachusetts", MI: "Michigan", MN: "Minnesota", MS: "Mississippi", MO: "Missouri",
  MT: "Montana", NE: "Nebraska", NV: "Nevada", NH: "New Hampshire", NJ: "New Jersey", NM: "New Mexico",
  NY: "New York", NC: "North Carolina", ND: "North Dakota", OH: "Ohio", OK: "Oklahoma", OR: "Oregon",
  PA: "Pennsylvania", RI: "Rhode Island", SC: "South Carolina", SD: "South Dakota", TN: "Tennessee", TX: "Texas",
  UT: "Utah", VT: "Vermont", VA: "Virginia", WA: "Washington", WV: "West Virginia", WI: "Wisconsin", WY: "Wyoming",
}; // prettier-ignore
