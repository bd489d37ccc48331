import { consumeCharacterReference } from '../../../src/shared/html-character-references';
import { parseCueText } from '../../../src/shared/webvtt-cue-text';

// WebVTT cue text is markup, read by the spec's rules (https://www.w3.org/TR/webvtt1/#cue-text-parsing-rules):
// the words are what is translated and spoken, the voice is who says them. Examples from the spec's own.

describe('parseCueText', () => {
  it('reads the issue example: a voice span is the speaker, never words', () => {
    expect(parseCueText('<v Ana>Hello and welcome to the show.')).toEqual({ text: 'Hello and welcome to the show.', voices: ['Ana'] });
  });

  it.each([
    ['<v Roger Bingham>We are in New York City', 'We are in New York City', ['Roger Bingham']],
    ['<v Neil deGrasse Tyson><i>Laughs</i>', 'Laughs', ['Neil deGrasse Tyson']],
    ["<v Roger Bingham>No! No no no no; 'cos 'cos obviously 'cos", "No! No no no no; 'cos 'cos obviously 'cos", ['Roger Bingham']],
    ['<v Roger Bingham>When we e-mailed&mdash;', 'When we e-mailed—', ['Roger Bingham']],
    ["<v.first.loud Esme>It's a blue apple tree!", "It's a blue apple tree!", ['Esme']],
    ["<v.loud Mary>That's awesome!", "That's awesome!", ['Mary']],
    ['<v Esme>Hee!</v> <i>laughter</i>', 'Hee! laughter', ['Esme']],
    ['Sur les <i.foreignphrase><lang en>playground</lang></i>, ici à Montpellier', 'Sur les playground, ici à Montpellier', []],
    ['<c.yellow.bg_blue>This is yellow text on a blue background</c>', 'This is yellow text on a blue background', []],
    ['<b>bold</b> <u>under</u> <c>class</c>', 'bold under class', []],
  ])('reads the spec example %j', (input, text, voices) => {
    expect(parseCueText(input)).toEqual({ text, voices });
  });

  it('drops inner timestamps, valid or not, keeping the words around them', () => {
    expect(parseCueText('<00:00:16.000> <c>This</c>\n<00:00:18.000> <c>can</c> <00:20.000>match<99x>!').text).toBe('This\ncan match!');
    expect(parseCueText('No match <00:00:12.000> (no elements)').text).toBe('No match  (no elements)');
  });

  it('keeps the ruby base and drops its ruby text, which is a reading aid, not what is said', () => {
    expect(parseCueText('<ruby>漢<rt>kan</rt>字<rt>ji</rt></ruby> desu').text).toBe('漢字 desu');
    // </ruby> inside the ruby text closes both; an <rt> outside a <ruby> opens nothing.
    expect(parseCueText('<ruby>A<rt>a</ruby>B').text).toBe('AB');
    expect(parseCueText('<rt>C</rt>D').text).toBe('CD');
    expect(parseCueText('<ruby.loud>Yellow! <rt.loud>Yellow!</rt></ruby>').text).toBe('Yellow!');
  });

  it('reads character references: named, decimal and hexadecimal, with or without the semicolon', () => {
    expect(parseCueText('Fish &amp; chips &lt;today&gt;').text).toBe('Fish & chips <today>');
    expect(parseCueText('a&nbsp;b &lrm;c&rlm; &#233;t&#xE9; &#X41;&#66 &#x1F600;').text).toBe('a\u00a0b \u200ec\u200f été AB 😀');
    expect(parseCueText('&amp &lt3 &quot;q&quot; &apos;').text).toBe('& <3 "q" \'');
    // HTML's Windows-1252 numbers, and the replacement character for NUL, surrogates and beyond Unicode.
    expect(parseCueText('&#150;&#x80;&#0;&#xD800;&#x110000;&#99999999999999999999;').text).toBe('–€\ufffd\ufffd\ufffd\ufffd');
  });

  it('keeps an ampersand that starts no reference, with what follows it', () => {
    expect(parseCueText('Tom & Jerry &eacute; &# &#x; &unknown; &').text).toBe('Tom & Jerry &eacute; &# &#x; &unknown; &');
    expect(parseCueText('R&<b>D</b>').text).toBe('R&D');
  });

  it('ignores tags it does not know, and closing tags that close nothing, as players do', () => {
    expect(parseCueText('<font color="red">red</font> <I>big</I> </b>end<br>').text).toBe('red big end');
    expect(parseCueText('<>empty</> < spaced>x').text).toBe('empty x');
  });

  it('takes a raw < as a tag opening, as the spec does: such text must be written &lt;', () => {
    expect(parseCueText('1 < 2 is true').text).toBe('1');
    expect(parseCueText('unclosed <i').text).toBe('unclosed');
  });

  it('trims each line and drops blank ones once the markup is gone', () => {
    expect(parseCueText('<v Ana>\n  line one  \n<i></i>\nline two ').text).toBe('line one\nline two');
    expect(parseCueText('<v Ana></v>').text).toBe('');
  });

  it('names each voice once, normalized, in order; an empty voice names nobody', () => {
    expect(parseCueText('<v Ana>Hi</v> <v  Ana >again').voices).toEqual(['Ana']);
    expect(parseCueText('<v Ana>Hi</v> <v Ben>Hello').voices).toEqual(['Ana', 'Ben']);
    expect(parseCueText('<v>Hi <v.loud \t >there').voices).toEqual([]);
    expect(parseCueText('<v Dr.\nBen   Smith>Hi').voices).toEqual(['Dr. Ben Smith']);
    // References in the annotation are read; `&>` is an ampersand and the tag's end.
    expect(parseCueText('<v Tom &amp; Jerry>Hi').voices).toEqual(['Tom & Jerry']);
    expect(parseCueText('<v &lt;3&gt;>Hi').voices).toEqual(['<3>']);
    expect(parseCueText('<v R&>D').voices).toEqual(['R&']);
    expect(parseCueText('<v R&>D').text).toBe('D');
    // A class-only voice (<v.loud>) and a voice's classes are no part of its name.
    expect(parseCueText('<v.loud>Hi').voices).toEqual([]);
  });
});

describe('consumeCharacterReference', () => {
  it('finds no reference where the character after & cannot start one, or is the allowed one', () => {
    for (const after of [' x', '\tx', '\nx', '<x', '&x', '']) expect(consumeCharacterReference(`&${after}`, 1)).toBeNull();
    expect(consumeCharacterReference('&>', 1, '>')).toBeNull();
    expect(consumeCharacterReference('&gt;', 1, '>')).toEqual({ text: '>', end: 4 });
  });

  it('reads the longest name, and no inherited object key', () => {
    expect(consumeCharacterReference('&nbsp;x', 1)).toEqual({ text: '\u00a0', end: 6 });
    expect(consumeCharacterReference('&nbspx', 1)).toEqual({ text: '\u00a0', end: 5 });
    expect(consumeCharacterReference('&toString;', 1)).toBeNull();
    expect(consumeCharacterReference('&constructor', 1)).toBeNull();
  });
});
