import ExcelJS from 'exceljs';

/**
 * A household survey of `rows` survey rows: blocks of 25 rows (a group of questions with logic,
 * then a repeat with its own questions), each block's names suffixed with its number.
 */
export async function benchWorkbook(rows: number): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const survey = workbook.addWorksheet('survey');
  survey.addRow([
    'type',
    'name',
    'label::English (en)',
    'label::French (fr)',
    'hint::English (en)',
    'required',
    'relevant',
    'constraint',
    'constraint_message::English (en)',
    'calculation',
    'choice_filter',
    'repeat_count',
  ]);
  let n = 0;
  const add = (cells: (string | null)[]) => {
    survey.addRow(cells);
    n++;
  };
  for (let b = 0; n + 25 <= rows; b++) {
    add(['begin_group', `g${b}`, `Block ${b}`, `Bloc ${b}`]);
    add([
      'integer',
      `age${b}`,
      'Age',
      'Âge',
      'In years',
      'yes',
      null,
      '. >= 0 and . < 130',
      'Between 0 and 129',
    ]);
    add(['select_one country', `country${b}`, 'Country', 'Pays', null, 'yes']);
    add([
      'select_one region',
      `region${b}`,
      'Region',
      'Région',
      null,
      null,
      null,
      null,
      null,
      null,
      `country = \${country${b}}`,
    ]);
    add(['text', `name${b}`, 'Name', 'Nom', null, `\${age${b}} > 17`]);
    add(['decimal', `income${b}`, 'Income', 'Revenu', null, null, `\${age${b}} >= 15`, '. >= 0']);
    add(['select_multiple items', `items${b}`, 'Items', 'Objets']);
    add(['date', `date${b}`, 'Date', 'Date']);
    add(['calculate', `double${b}`, null, null, null, null, null, null, null, `\${income${b}} * 2`]);
    add(['note', `note${b}`, 'Thank you', 'Merci', null, null, `\${age${b}} > 0`]);
    add(['end_group']);
    add(['integer', `members${b}`, 'Members', 'Membres', null, null, null, '. <= 20']);
    add([
      'begin_repeat',
      `member${b}`,
      'Member',
      'Membre',
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      `\${members${b}}`,
    ]);
    add(['text', `mname${b}`, 'Name', 'Nom', null, 'yes']);
    add(['integer', `mage${b}`, 'Age', 'Âge', null, null, null, '. >= 0']);
    add([
      'select_one yn',
      `pregnant${b}`,
      'Pregnant?',
      'Enceinte ?',
      null,
      null,
      `\${mage${b}} >= 15 and \${mage${b}} <= 49`,
    ]);
    add(['select_one yn', `school${b}`, 'At school?', 'Scolarisé ?', null, null, `\${mage${b}} < 18`]);
    add(['time', `time${b}`, 'Time', 'Heure']);
    add(['geopoint', `where${b}`, 'Where', 'Où']);
    add(['image', `photo${b}`, 'Photo', 'Photo']);
    add(['text', `note_text${b}`, 'Notes', 'Notes', null, null, `selected(\${school${b}}, 'yes')`]);
    add(['decimal', `weight${b}`, 'Weight', 'Poids', null, null, null, '. > 0 and . < 300']);
    add(['calculate', `pos${b}`, null, null, null, null, null, null, null, 'position(..)']);
    add(['integer', `count${b}`, 'Count', 'Nombre']);
    add(['end_repeat']);
  }
  while (n < rows) add(['text', `extra${n}`, 'Extra', 'Extra']);
  const choices = workbook.addWorksheet('choices');
  choices.addRow(['list_name', 'name', 'label::English (en)', 'label::French (fr)', 'country']);
  choices.addRow(['country', 'fr', 'France', 'France']);
  choices.addRow(['country', 'ke', 'Kenya', 'Kenya']);
  choices.addRow(['region', 'idf', 'Paris region', 'Île-de-France', 'fr']);
  choices.addRow(['region', 'nai', 'Nairobi', 'Nairobi', 'ke']);
  for (const [v, en, fr] of [
    ['yes', 'Yes', 'Oui'],
    ['no', 'No', 'Non'],
  ])
    choices.addRow(['yn', v, en, fr]);
  for (let i = 0; i < 10; i++) choices.addRow(['items', `item${i}`, `Item ${i}`, `Objet ${i}`]);
  const settings = workbook.addWorksheet('settings');
  settings.addRow(['form_title', 'default_language']);
  settings.addRow(['Bench household', 'English (en)']);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
