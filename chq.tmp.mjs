import { query } from 'chdb';
const q = process.argv[2];
console.log(query(q, 'JSONEachRow'));
