import { drawWheel, fitLabel, pixelRatio, safeColor, sizeCanvas, WHEEL_SIZE, type WheelContext } from './wheelDrawing';

/** A 2D context that records what is drawn (jsdom has no canvas); text is 8 px a character. */
function recordingContext() {
  const calls: { name: string; args: unknown[]; fillStyle?: unknown; font?: string }[] = [];
  const ctx = {
    fillStyle: '' as unknown,
    strokeStyle: '' as unknown,
    lineWidth: 1,
    font: '',
    textAlign: 'start',
    textBaseline: 'alphabetic',
    measureText: (text: string) => ({ width: Array.from(text).length * 8 }),
  } as Record<string, unknown>;
  for (const name of ['setTransform', 'clearRect', 'beginPath', 'moveTo', 'arc', 'closePath', 'fill', 'stroke', 'save', 'restore', 'translate', 'rotate', 'fillText']) {
    ctx[name] = (...args: unknown[]) => calls.push({ name, args, fillStyle: ctx.fillStyle, font: ctx.font as string });
  }
  return { ctx: ctx as unknown as WheelContext, calls };
}

const slices = [
  { label: '50 baht', bgColor: '#ff0000', textColor: '#ffffff' },
  { label: 'Try again', bgColor: '#00ff00', textColor: '#000000' },
  { label: '1 coin', bgColor: 'red; background:url(x)', textColor: 'nope' },
];

describe('wheel drawing', () => {
  it('a bitmap of 350 CSS px times the screen density, drawn scaled, so text stays crisp', () => {
    const canvas = { width: 0, height: 0 };
    sizeCanvas(canvas, WHEEL_SIZE, pixelRatio(2));
    expect(canvas).toEqual({ width: 700, height: 700 });
    sizeCanvas(canvas, WHEEL_SIZE, pixelRatio(undefined));
    expect(canvas).toEqual({ width: 350, height: 350 });
    expect(pixelRatio(3)).toBe(3);
    expect(pixelRatio(0)).toBe(1);
    expect(pixelRatio(Number.NaN)).toBe(1);

    const { ctx, calls } = recordingContext();
    drawWheel(ctx, slices, WHEEL_SIZE, 2);
    expect(calls[0]).toMatchObject({ name: 'setTransform', args: [2, 0, 0, 2, 0, 0] });
    expect(calls[1]).toMatchObject({ name: 'clearRect', args: [0, 0, 350, 350] });
  });

  it('one sector per slice, clockwise from the top, in its colours, with its label', () => {
    const { ctx, calls } = recordingContext();
    drawWheel(ctx, slices, WHEEL_SIZE, 1);
    const sectors = calls.filter((call) => call.name === 'arc' && call.args[2] === 169);
    // Three sectors plus the rim.
    expect(sectors).toHaveLength(4);
    const third = (2 * Math.PI) / 3;
    sectors.slice(0, 3).forEach((call, index) => {
      expect(call.args[0]).toBe(175);
      expect(call.args[3]).toBeCloseTo(-Math.PI / 2 + index * third);
      expect(call.args[4]).toBeCloseTo(-Math.PI / 2 + (index + 1) * third);
    });
    const fills = calls.filter((call) => call.name === 'fill').map((call) => call.fillStyle);
    // A colour that is not #rrggbb is not handed to the canvas.
    expect(fills.slice(0, 3)).toEqual(['#ff0000', '#00ff00', '#0b6e4f']);
    const texts = calls.filter((call) => call.name === 'fillText');
    expect(texts.map((call) => call.args[0])).toEqual(['50 baht', 'Try again', '1 coin']);
    expect(texts.map((call) => call.fillStyle)).toEqual(['#ffffff', '#000000', '#ffffff']);
    expect(texts[0].font).toMatch(/^600 16px .*Noto Sans Thai.*Noto Sans Lao/);
  });

  it('draws nothing but a clear canvas without slices', () => {
    const { ctx, calls } = recordingContext();
    drawWheel(ctx, [], WHEEL_SIZE, 1);
    expect(calls.map((call) => call.name)).toEqual(['setTransform', 'clearRect']);
  });

  it('cuts a label that does not fit, by whole characters', () => {
    const { ctx } = recordingContext();
    expect(fitLabel(ctx, 'short', 80)).toBe('short');
    expect(fitLabel(ctx, 'a much longer label', 80)).toBe('a much lo…');
    // Thai with a combining mark: never split from its letter (code points would give 'รางว…').
    expect(fitLabel(ctx, 'รางวัลใหญ่มาก', 56)).toBe('รางวัล…');
    expect(fitLabel(ctx, 'รางวัลใหญ่มาก', 40)).toBe('ราง…');
  });

  it('accepts only hex colours', () => {
    expect(safeColor('#AbCdEf', '#000')).toBe('#AbCdEf');
    expect(safeColor(' #fff ', '#000')).toBe('#fff');
    expect(safeColor('url(javascript:x)', '#000')).toBe('#000');
    expect(safeColor(undefined, '#000')).toBe('#000');
  });
});

describe('wheel labels stay readable (issue 40 item 11)', () => {
  /** The text's own direction, as drawn: the rotation, turned half a turn more when it is written right-aligned from the rim. */
  it('no label is drawn upside down: every text runs with its baseline within a quarter turn of level', () => {
    const { ctx, calls } = recordingContext();
    const eight = Array.from({ length: 8 }, (_, index) => ({ label: `slice ${index}`, bgColor: '#000000', textColor: '#ffffff' }));
    drawWheel(ctx, eight, WHEEL_SIZE, 1);
    const rotations = calls.filter((call) => call.name === 'rotate').map((call) => call.args[0] as number);
    expect(rotations).toHaveLength(8);
    for (const angle of rotations) {
      // The text's x axis after the rotation: upright text has it pointing rightwards (cos >= 0).
      expect(Math.cos(angle)).toBeGreaterThanOrEqual(-1e-9);
    }
    // The texts still sit inside the rim: 14 px in, from whichever side they are written.
    const xs = calls.filter((call) => call.name === 'fillText').map((call) => Math.abs(call.args[1] as number));
    expect(new Set(xs)).toEqual(new Set([169 - 14]));
  });
});
