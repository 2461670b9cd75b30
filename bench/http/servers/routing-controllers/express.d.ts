// express 5 ships no types and the bench needs none of them.
declare module 'express';
