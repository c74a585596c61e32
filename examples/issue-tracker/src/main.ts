// Starts the sample issue tracker and its connector on 127.0.0.1 (connector port from PORT, default 3000)
// and prints what to call.
import { closeOnSignal, printHowToCall, startSample } from './start-sample.js';

const sample = await startSample();
printHowToCall(sample);
closeOnSignal(sample);
