// Vite's ?raw imports: the file's text (used to run the backend's shell scripts in tests).
declare module '*?raw' {
  const text: string;
  export default text;
}
