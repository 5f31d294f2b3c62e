/**
 * Number and time formats of the charts in the console's languages, as d3-format and
 * d3-time-format take them (vega-embed's `formatLocale` and `timeFormatLocale`).
 */
const NUMBER = {
  en: { decimal: '.', thousands: ',', grouping: [3], currency: ['$', ''], percent: '%' },
  fr: { decimal: ',', thousands: '\u202f', grouping: [3], currency: ['', '\u00a0€'], percent: '\u202f%' },
} as const;

const TIME = {
  en: {
    dateTime: '%x, %X',
    date: '%-m/%-d/%Y',
    time: '%-I:%M:%S %p',
    periods: ['AM', 'PM'],
    days: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'],
    shortDays: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
    months: [
      'January',
      'February',
      'March',
      'April',
      'May',
      'June',
      'July',
      'August',
      'September',
      'October',
      'November',
      'December',
    ],
    shortMonths: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  },
  fr: {
    dateTime: '%A %e %B %Y à %X',
    date: '%d/%m/%Y',
    time: '%H:%M:%S',
    periods: ['AM', 'PM'],
    days: ['dimanche', 'lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi'],
    shortDays: ['dim.', 'lun.', 'mar.', 'mer.', 'jeu.', 'ven.', 'sam.'],
    months: [
      'janvier',
      'février',
      'mars',
      'avril',
      'mai',
      'juin',
      'juillet',
      'août',
      'septembre',
      'octobre',
      'novembre',
      'décembre',
    ],
    shortMonths: [
      'janv.',
      'févr.',
      'mars',
      'avr.',
      'mai',
      'juin',
      'juil.',
      'août',
      'sept.',
      'oct.',
      'nov.',
      'déc.',
    ],
  },
} as const;

/** The number and time formats of `language` (English for any other). */
export function chartLocale(language: string | undefined) {
  const lang = language?.startsWith('fr') ? 'fr' : 'en';
  return { formatLocale: NUMBER[lang], timeFormatLocale: TIME[lang] };
}
