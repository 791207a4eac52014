import { useEffect, useRef } from 'react';

import { easeOut, landingRotation, spinPlan } from './landing';
import type { WheelSlice } from './wheelApi';
import { drawWheel, pixelRatio, sizeCanvas, WHEEL_SIZE } from './wheelDrawing';

/** The prize to land on: the spin that drew it and its slice (-1: the wheel has no such slice). */
export interface WheelLanding {
  requestId: string;
  index: number;
}

interface Props {
  slices: WheelSlice[];
  landing: WheelLanding | null;
  /** The wheel is at rest on the landing of spin `requestId`. */
  onStopped: (requestId: string) => void;
  /** The player skipped the animation: land at once (now, or when the landing arrives). */
  skip?: boolean;
  /** The canvas's accessible name, and the id of the text listing the slices. */
  label: string;
  describedBy: string;
}

/** Spec §9 animation is long; a player who asked the system for less motion gets the result at once. */
export function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * The wheel on a 350 px canvas (spec §9), drawn once per set of slices at the screen's density, and turned as a
 * whole (a CSS transform each animation frame) onto the landing: 2 or 3 extra turns in about 4 to 5 s each,
 * slowing to a stop exactly inside the prize's slice. Loaded lazily: its own chunk.
 */
export default function WheelCanvas({ slices, landing, onStopped, skip = false, label, describedBy }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const rotation = useRef(0);
  const stopped = useRef(onStopped);
  stopped.current = onStopped;
  // Read by the running animation each frame: skipping must not restart the spin with a new plan.
  const skipping = useRef(skip);
  skipping.current = skip;

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    let drawnAt = 0;
    const draw = () => {
      const ratio = pixelRatio(window.devicePixelRatio);
      if (ratio === drawnAt) return;
      drawnAt = ratio;
      sizeCanvas(element, WHEEL_SIZE, ratio);
      const ctx = typeof element.getContext === 'function' ? element.getContext('2d') : null;
      if (ctx) drawWheel(ctx, slices, WHEEL_SIZE, ratio);
    };
    draw();
    // Zooming or moving to another screen changes the density: draw again so the labels stay sharp.
    window.addEventListener('resize', draw);
    return () => window.removeEventListener('resize', draw);
  }, [slices]);

  const requestId = landing?.requestId ?? null;
  const index = landing?.index ?? -1;
  const count = slices.length;
  useEffect(() => {
    const element = canvas.current;
    if (requestId === null || !element) return;
    const turnTo = (degrees: number) => {
      rotation.current = degrees;
      element.style.transform = `rotate(${degrees}deg)`;
    };
    const plan = spinPlan();
    const from = rotation.current % 360;
    const to = index >= 0 && count > 0 ? landingRotation({ from, index, count, extraTurns: plan.extraTurns, offset: plan.offset }) : from;
    if (to === from || skipping.current || prefersReducedMotion()) {
      turnTo(to);
      stopped.current(requestId);
      return;
    }
    let frame = 0;
    let start: number | null = null;
    const step = (now: number) => {
      start ??= now;
      const progress = skipping.current ? 1 : (now - start) / plan.durationMs;
      if (progress >= 1) {
        turnTo(to);
        stopped.current(requestId);
        return;
      }
      turnTo(from + (to - from) * easeOut(progress));
      frame = requestAnimationFrame(step);
    };
    frame = requestAnimationFrame(step);
    return () => cancelAnimationFrame(frame);
  }, [requestId, index, count]);

  return (
    <canvas
      ref={canvas}
      className="wheel__canvas"
      width={WHEEL_SIZE}
      height={WHEEL_SIZE}
      role="img"
      aria-label={label}
      aria-describedby={describedBy}
      data-testid="wheel-canvas"
    />
  );
}
