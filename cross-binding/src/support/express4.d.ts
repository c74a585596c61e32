// Express 4 is installed under the alias `express4`, next to Express 5; its API is typed like Express 5's
// for what the suite uses.
declare module 'express4' {
  import express from 'express';
  export default express;
}
