// `npm run dev`: the sample issue tracker and its connector, both on 127.0.0.1 (connector port from PORT,
// default 3000), and what to call. The production entry point is main.ts.
import { closeOnSignal, printHowToCall, startSample } from './start-sample.js';

const sample = await startSample();
printHowToCall(sample);
closeOnSignal(sample);
