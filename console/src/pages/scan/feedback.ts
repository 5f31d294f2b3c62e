/** The three answers a door scan can give, each with its own sound and vibration. */
export type Signal = 'green' | 'red' | 'amber';

const TONES: Record<Signal, Array<[frequencyHz: number, ms: number]>> = {
  green: [[880, 120]],
  red: [
    [220, 180],
    [0, 80],
    [220, 180],
  ],
  amber: [
    [520, 90],
    [0, 60],
    [520, 90],
  ],
};
const VIBRATIONS: Record<Signal, number[]> = { green: [80], red: [200, 100, 200], amber: [60, 60, 60] };

let audio: AudioContext | undefined;

/**
 * Plays the answer's tones (Web Audio: nothing to download) and vibrates where the device can.
 * Browsers allow sound only after a user gesture: the first scan (a key press) provides it.
 */
export function signal(kind: Signal): void {
  navigator.vibrate?.(VIBRATIONS[kind]);
  try {
    audio ??= new AudioContext();
    let at = audio.currentTime;
    for (const [hz, ms] of TONES[kind]) {
      if (hz > 0) {
        const osc = audio.createOscillator();
        const gain = audio.createGain();
        osc.frequency.value = hz;
        gain.gain.value = 0.15;
        osc.connect(gain).connect(audio.destination);
        osc.start(at);
        osc.stop(at + ms / 1000);
      }
      at += ms / 1000;
    }
  } catch {
    // No audio on this device: the colour and the words still answer.
  }
}
